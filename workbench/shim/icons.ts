/**
 * setIcon with a few Lucide-style icons drawn as inline SVG (24×24, stroked). Unknown ids get a
 * neutral dot, so a missing icon is visible but harmless.
 */
const ICONS: Record<string, string[]> = {
  plus: ['M12 5v14', 'M5 12h14'],
  x: ['M18 6 6 18', 'M6 6l12 12'],
  check: ['M20 6 9 17l-5-5'],
  send: ['M22 2 11 13', 'M22 2 15 22l-4-9-9-4 20-7z'],
  'send-horizontal': ['M3 3l3 9-3 9 19-9z', 'M6 12h16'],
  square: ['M5 5h14v14H5z'],
  'circle-stop': ['M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z', 'M9 9h6v6H9z'],
  copy: ['M8 8h12v12H8z', 'M4 16V4h12'],
  'refresh-cw': ['M21 12a9 9 0 0 1-15 6.7L3 16', 'M3 12a9 9 0 0 1 15-6.7L21 8', 'M21 3v5h-5', 'M3 21v-5h5'],
  'rotate-ccw': ['M3 12a9 9 0 1 0 3-6.7L3 8', 'M3 3v5h5'],
  pencil: ['M17 3l4 4L8 20H4v-4z'],
  pin: ['M12 17v5', 'M9 10.8a2 2 0 0 1-1.1 1.8l-1.8.9A2 2 0 0 0 5 15.2V16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-.8a2 2 0 0 0-1.1-1.8l-1.8-.9a2 2 0 0 1-1.1-1.8V7a1 1 0 0 1 1-1 2 2 0 0 0 0-4H8a2 2 0 0 0 0 4 1 1 0 0 1 1 1z'],
  'pin-off': ['M12 17v5', 'M15 9.3V7a1 1 0 0 1 1-1 2 2 0 0 0 0-4H7.9', 'M2 2l20 20', 'M9 9v1.8a2 2 0 0 1-1.1 1.8l-1.8.9A2 2 0 0 0 5 15.2V16a1 1 0 0 0 1 1h11'],
  archive: ['M3 3h18v5H3z', 'M4 8v11a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8', 'M10 12h4'],
  'archive-restore': ['M3 3h18v5H3z', 'M4 8v11a2 2 0 0 0 2 2h2', 'M20 8v11a2 2 0 0 1-2 2h-2', 'M9 15l3-3 3 3', 'M12 12v9'],
  'file-plus-2': ['M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6', 'M12 12v6', 'M9 15h6'],
  'edit-3': ['M12 20h9', 'M16.5 3.5l4 4L8 20H4v-4z'],
  trash: ['M3 6h18', 'M8 6V4h8v2', 'M6 6l1 14h10l1-14'],
  'trash-2': ['M3 6h18', 'M8 6V4h8v2', 'M6 6l1 14h10l1-14', 'M10 11v6', 'M14 11v6'],
  history: ['M3 12a9 9 0 1 0 3-6.7L3 8', 'M3 3v5h5', 'M12 7v5l4 2'],
  'message-square': ['M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z'],
  'messages-square': ['M14 9a2 2 0 0 1-2 2H6l-4 4V4a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2z', 'M18 9h2a2 2 0 0 1 2 2v11l-4-4h-6a2 2 0 0 1-2-2v-1'],
  settings: ['M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-2.8 1.2V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-2.8-1.2l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1A1.7 1.7 0 0 0 3 14.1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.2-2.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1A1.7 1.7 0 0 0 9.9 3V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 2.8 1.2l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0 1.2 2.8H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1.1z'],
  'chevron-down': ['M6 9l6 6 6-6'],
  'chevron-up': ['M18 15l-6-6-6 6'],
  'chevron-right': ['M9 18l6-6-6-6'],
  'chevron-left': ['M15 18l-6-6 6-6'],
  table: ['M3 3h18v18H3z', 'M3 9h18', 'M3 15h18', 'M12 3v18'],
  files: ['M20 7h-3a2 2 0 0 1-2-2V2', 'M9 18a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h7l4 4v10a2 2 0 0 1-2 2z', 'M3 7.6v12.8A1.6 1.6 0 0 0 4.6 22h9.8'],
  'layout-dashboard': ['M3 3h7v9H3z', 'M14 3h7v5h-7z', 'M14 12h7v9h-7z', 'M3 16h7v5H3z'],
  'file-text': ['M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6', 'M16 13H8', 'M16 17H8'],
  file: ['M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6'],
  folder: ['M4 20h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-8l-2-3H4a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2z'],
  hash: ['M4 9h16', 'M4 15h16', 'M10 3 8 21', 'M16 3l-2 18'],
  tag: ['M20.6 13.4 13.4 20.6a2 2 0 0 1-2.8 0L2 12V2h10l8.6 8.6a2 2 0 0 1 0 2.8z', 'M7 7h.01'],
  link: ['M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7', 'M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7'],
  globe: ['M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z', 'M2 12h20', 'M12 2a15 15 0 0 1 0 20 15 15 0 0 1 0-20z'],
  'at-sign': ['M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M16 8v5a3 3 0 0 0 6 0v-1a10 10 0 1 0-4 8'],
  bot: ['M5 8h14v12H5z', 'M12 8V4', 'M9 13v2', 'M15 13v2'],
  user: ['M19 21v-2a4 4 0 0 0-4-4H9a4 4 0 0 0-4 4v2', 'M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z'],
  'alert-triangle': ['M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z', 'M12 9v4', 'M12 17h.01'],
  'alert-circle': ['M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z', 'M12 8v4', 'M12 16h.01'],
  'loader-2': ['M21 12a9 9 0 1 1-6.2-8.6'],
  timer: ['M10 2h4', 'M12 14l3-3', 'M12 6a8 8 0 1 0 0 16 8 8 0 0 0 0-16z'],
  'key-round': ['M2.6 17.4A2 2 0 0 0 2 18.8V21a1 1 0 0 0 1 1h3a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h1a1 1 0 0 0 1-1v-1a1 1 0 0 1 1-1h.2a2 2 0 0 0 1.4-.6l.8-.8a6.5 6.5 0 1 0-4-4z', 'M16.5 7.5h.01'],
  info: ['M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z', 'M12 16v-4', 'M12 8h.01'],
  search: ['M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16z', 'M21 21l-4.3-4.3'],
  'more-horizontal': ['M12 12h.01', 'M19 12h.01', 'M5 12h.01'],
  'more-vertical': ['M12 12h.01', 'M12 5h.01', 'M12 19h.01'],
  'book-open': ['M2 3h6a4 4 0 0 1 4 4v14a3 3 0 0 0-3-3H2z', 'M22 3h-6a4 4 0 0 0-4 4v14a3 3 0 0 1 3-3h7z'],
  'list': ['M8 6h13', 'M8 12h13', 'M8 18h13', 'M3 6h.01', 'M3 12h.01', 'M3 18h.01'],
  layers: ['M12 2 2 7l10 5 10-5-10-5z', 'M2 17l10 5 10-5', 'M2 12l10 5 10-5'],
  database: ['M12 8c5 0 9-1.3 9-3s-4-3-9-3-9 1.3-9 3 4 3 9 3z', 'M3 5v14c0 1.7 4 3 9 3s9-1.3 9-3V5', 'M3 12c0 1.7 4 3 9 3s9-1.3 9-3'],
  'text-cursor-input': ['M5 4h1a3 3 0 0 1 3 3 3 3 0 0 1 3-3h1', 'M13 20h-1a3 3 0 0 1-3-3 3 3 0 0 1-3 3H5', 'M9 7v10'],
  'scissors': ['M6 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M20 4 8.1 15.9', 'M14.5 14.5 20 20', 'M8.1 8.1 12 12'],
  'square-slash': ['M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z', 'M9 15l6-6'],
  'file-diff': ['M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6', 'M12 10v6', 'M9 13h6', 'M9 18h6'],
  'file-check': ['M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6', 'M9 15l2 2 4-4'],
  'file-symlink': ['M4 11V4a2 2 0 0 1 2-2h8l6 6v12a2 2 0 0 1-2 2h-7', 'M14 2v6h6', 'M10 18l3-3-3-3', 'M4 18v-1a2 2 0 0 1 2-2h7'],
  'check-check': ['M18 6 7 17l-5-5', 'M22 10l-7.5 7.5L13 16'],
  'undo-2': ['M9 14 4 9l5-5', 'M4 9h10.5a5.5 5.5 0 0 1 0 11H11'],
  'wand-2': ['M15 4V2', 'M15 16v-2', 'M8 9h2', 'M20 9h2', 'M17.8 11.8 19 13', 'M17.8 6.2 19 5', 'M3 21l9-9', 'M12.2 6.2 11 5'],
  'file-plus': ['M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6', 'M12 18v-6', 'M9 15h6'],
  replace: ['M14 4a2 2 0 0 1 2-2', 'M16 10a2 2 0 0 1-2-2', 'M20 2a2 2 0 0 1 2 2', 'M22 8a2 2 0 0 1-2 2', 'M3 7l3 3 3-3', 'M6 10V5a3 3 0 0 1 3-3h1', 'M4 14h6v6H4z'],
  'minimize-2': ['M4 14h6v6', 'M20 10h-6V4', 'M14 10l7-7', 'M3 21l7-7'],
  sparkles: ['M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z'],
  'panel-right': ['M3 3h18v18H3z', 'M15 3v18'],
  'dice': ['M4 4h16v16H4z'],
  'lucide-sun': ['M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10z', 'M12 1v2', 'M12 21v2', 'M4.2 4.2l1.4 1.4', 'M18.4 18.4l1.4 1.4', 'M1 12h2', 'M21 12h2'],
  'lucide-moon': ['M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z'],
};

const custom = new Map<string, string>();

/** Icon ids asked for that the workbench cannot draw (shown as a dot): a hint to add them here. */
export const missingIcons = new Set<string>();

function iconKey(id: string): string {
  return ICONS[id] ? id : id.replace(/^lucide-/, '');
}

export function getIconIds(): string[] {
  return [...Object.keys(ICONS), ...custom.keys()];
}

export function getIcon(iconId: string): SVGSVGElement | null {
  const key = iconKey(iconId);
  const svg = createSvg('svg');
  svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  svg.setAttribute('width', '24');
  svg.setAttribute('height', '24');
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '2');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  svg.classList.add('svg-icon', `lucide-${key}`);
  const paths = ICONS[key];
  if (paths) {
    svg.setAttribute('viewBox', '0 0 24 24');
    for (const d of paths) {
      svg.createSvg('path', { attr: { d } });
    }
    return svg;
  }
  const body = custom.get(iconId);
  if (body !== undefined) {
    svg.setAttribute('viewBox', '0 0 100 100');
    const doc = new DOMParser().parseFromString(`<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`, 'image/svg+xml');
    for (const node of Array.from(doc.documentElement.childNodes)) svg.appendChild(document.importNode(node, true));
    return svg;
  }
  return null;
}

export function setIcon(parent: HTMLElement, iconId: string): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  const svg = getIcon(iconId);
  if (svg) {
    parent.appendChild(svg);
    return;
  }
  // Unknown icon: a small dot keeps the layout, and the id says what was asked for.
  missingIcons.add(iconId);
  const fallback = getIcon('more-horizontal');
  if (fallback) {
    fallback.setAttribute('data-icon', iconId);
    parent.appendChild(fallback);
  }
}

export function addIcon(iconId: string, svgContent: string): void {
  custom.set(iconId, svgContent);
}

export function removeIcon(iconId: string): void {
  custom.delete(iconId);
}
