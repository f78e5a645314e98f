/**
 * The workbench's `obsidian` module: what `require('obsidian')` returns to the plugin bundle in the
 * browser. Classes and functions follow node_modules/obsidian/obsidian.d.ts (1.11.4 API).
 */
import moment from 'moment';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

export { App } from './app';
export { Component } from './component';
export { Events, type EventRef } from './events';
export { TAbstractFile, TFile, TFolder } from './files';
export { Vault } from './vault';
export { MetadataCache, getAllTags, parseFrontMatterTags, parseFrontMatterAliases, parseFrontMatterEntry, getFrontMatterInfo } from './metadata';
export { FileManager } from './fileManager';
export { MarkdownRenderer, MarkdownRenderChild, MarkdownPreviewRenderer, htmlToMarkdown, sanitizeHTMLToDom } from './markdown';
export { setIcon, getIcon, getIconIds, addIcon, removeIcon } from './icons';
export { Notice } from './notice';
export { Scope, Keymap } from './scope';
export { Modal, SuggestModal, FuzzySuggestModal } from './modal';
export { PopoverSuggest, AbstractInputSuggest } from './popoverSuggest';
export { prepareFuzzySearch, prepareSimpleSearch, renderMatches, renderResults, sortSearchResults, fuzzySearch } from './search';
export {
  BaseComponent, ValueComponent, AbstractTextComponent, TextComponent, TextAreaComponent, SearchComponent, MomentFormatComponent,
  ToggleComponent, DropdownComponent, SliderComponent, ButtonComponent, ExtraButtonComponent, ProgressBarComponent, ColorComponent,
  DisplayValueComponent, SecretComponent,
} from './components';
export { Setting, SettingGroup, SettingTab, PluginSettingTab } from './setting';
export { Menu, MenuItem } from './menu';
export { Editor } from './editor';
export { View, ItemView, FileView, MarkdownView, WorkspaceLeaf, WorkspaceSplit, Workspace } from './workspace';
export { Plugin } from './plugin';
export { SecretStorage } from './secretStorage';
export { loadPdfJs } from './pdfjs';
export {
  normalizePath, debounce, Platform, requestUrl, request, setTooltip, getLinkpath, parseLinktext, stripHeading,
  arrayBufferToBase64, base64ToArrayBuffer, getLanguage, apiVersion, requireApiVersion,
} from './util';
export { moment, parseYaml, stringifyYaml };
