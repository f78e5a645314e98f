import { normalizeChatFolder } from '../vaultFolders';
import { PROJECT_ID, type ProjectSettings } from '../settings/projectSettings';
import { normalizeFolder, projectChatsFolder } from './folders';

/**
 * Projects (issue 14): a folder the chat stays inside (Vault QA's hits, the agent's tools), a
 * project prompt (a static L1 fragment: cached like the system prompt), notes attached to every new
 * chat of the project, and a default model. A chat records its project's id; its notes are saved
 * in the project's `Chats` folder (./folders.ts).
 */

export function isValidProjectId(id: string): boolean {
  return PROJECT_ID.test(id);
}

interface WithProjects {
  readonly projects: readonly ProjectSettings[];
}

/** The project with that id, or undefined (none, or no longer configured). */
export function findProject(settings: WithProjects, id: string | undefined | null): ProjectSettings | undefined {
  return id ? settings.projects.find((p) => p.id === id) : undefined;
}

/** How a chat's project is named to the user: its name, the id marked missing, or "no project". */
export function projectLabel(settings: WithProjects, id: string | undefined | null): string {
  if (!id) return 'no project';
  const project = findProject(settings, id);
  return project ? `project ${project.name}` : `project ${id} (missing)`;
}

/**
 * Every folder chats are saved in: the chat folder, then each project's chats folder (deduplicated,
 * normalized). What the search, Vault QA, the tools and attachments leave out.
 */
export function chatFolders(settings: WithProjects & { readonly chatFolder: string }): string[] {
  const folders = [normalizeChatFolder(settings.chatFolder)];
  for (const project of settings.projects) {
    const folder = projectChatsFolder(project.folder);
    if (folder !== null && !folders.includes(folder)) folders.push(folder);
  }
  return folders;
}

/** The project's default model when it names a configured provider; null otherwise (the settings' default then). */
export function projectModel(
  settings: { readonly providers: readonly { readonly id: string }[] },
  project: ProjectSettings | undefined,
): { provider: string; model: string } | null {
  if (!project?.provider || !project.model) return null;
  return settings.providers.some((p) => p.id === project.provider) ? { provider: project.provider, model: project.model } : null;
}

/** The folder a project chat stays inside ('' = the whole vault). */
export function projectScope(project: ProjectSettings | undefined): string {
  return project ? normalizeFolder(project.folder) : '';
}

/** A fresh id from a name: its slug, numbered when taken. */
export function newProjectId(projects: readonly { readonly id: string }[], name: string): string {
  const slug =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'project';
  const base = PROJECT_ID.test(slug) ? slug : `project-${slug}`;
  if (!projects.some((p) => p.id === base)) return base;
  let n = 2;
  while (projects.some((p) => p.id === `${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** A project's summary line in the settings: "Projects/Alpha · 2 notes" (and its model, when set). */
export function projectFacts(project: ProjectSettings): string {
  const n = project.notes.length;
  return [project.folder || 'whole vault', `${n} note${n === 1 ? '' : 's'}`, ...(project.model ? [project.model] : [])].join(' · ');
}

/** A default note as typed in the settings: a wikilink's target, `.md` added when the name has no extension. */
export function notePath(line: string): string {
  let path = line.trim();
  const wiki = /^!?\[\[([^\]]*)\]\]$/.exec(path);
  if (wiki) path = wiki[1].split('|')[0].trim();
  path = normalizeFolder(path);
  return path === '' || /\.[a-z0-9]+$/i.test(path) ? path : `${path}.md`;
}

/**
 * A file or folder of the vault was renamed (or moved): project folders and default notes at or under
 * `from` follow it to `to`. Returns whether any project changed (the settings are then saved).
 */
export function followRename(projects: ProjectSettings[], from: string, to: string): boolean {
  const move = (path: string): string => (path === from ? to : path.startsWith(`${from}/`) ? `${to}${path.slice(from.length)}` : path);
  let changed = false;
  for (const project of projects) {
    const folder = project.folder === '' ? '' : move(project.folder);
    const notes = project.notes.map(move);
    if (folder !== project.folder || notes.some((n, i) => n !== project.notes[i])) {
      project.folder = folder;
      project.notes = [...new Set(notes)];
      changed = true;
    }
  }
  return changed;
}
