// A rule file of a folder on disk, read under the rules of the project instructions file
// (locateInstructions): a regular file inside the folder, links followed only inside it, names
// that look like secrets refused (the file's and the one a link leads to), 32 KB at most. A file
// refused is kept as an unreadable rule, with why, so the rules list says it. Node only.
import * as l10n from '@vscode/l10n';
import { locateInstructions, type InstructionsInput, type RefusedReason } from '../context/instructions';
import { readRule, type Rule } from './ruleFormats';

function refusalText(reason: RefusedReason, resolved: string | undefined): string {
  switch (reason) {
    case 'secret':
      return resolved
        ? l10n.t('it leads to {0}, whose name looks like a secret (a key, a login or an .env file)', resolved)
        : l10n.t('its name looks like a secret (a key, a login or an .env file)');
    case 'outside':
      return l10n.t('it leads to a file outside the workspace');
    case 'special':
      return l10n.t('it is not a regular file');
  }
}

/** The rule file at `path` (relative to `folder`); undefined when it is not there or not a rule file. */
export async function loadRule(folder: string, path: string): Promise<Rule | undefined> {
  const found: Omit<InstructionsInput, 'name' | 'trusted' | 'enabled'> = await locateInstructions(folder, path, true).catch((err: unknown) => ({
    content: err instanceof Error ? err : new Error(String(err)),
  }));
  if (found.refused) {
    const rule = readRule({ path, content: '' });
    return rule && { ...rule, state: 'unreadable', problem: refusalText(found.refused, found.resolved) };
  }
  if (found.content === undefined) return undefined;
  return readRule({ path, content: found.content, ...(found.size !== undefined ? { size: found.size } : {}) });
}
