// The rooms loaded on their first use (platform/lazyRoom.ts): Export and Import, Edit in the
// editor, the list of the repository's rules, and the commit message of Source Control. Each is a file of its own in the build, read
// when one of its commands first runs; activation registers only their commands' stand-ins. Only
// types are imported here from the rooms (an import of their code would bring it into startup).
import type * as vscode from 'vscode';
import type { ChatConversations } from './export/chatConversations';
import type { InlineEditDeps } from './inlineEdit/inlineEdit';
import type { TurnService } from './pipeline/turnService';
import { registerLazyRoom } from './platform/lazyRoom';
import type { Logger } from './platform/log';
import { SHOW_RULES_COMMAND } from './rules/ruleCommandIds';
import type { RulesService } from './rules/rulesService';

export interface LazyRoomsDeps {
  /** The chat's conversations, for Export and Import. */
  conversations: ChatConversations;
  /** Edit in the editor's needs. */
  inlineEdit: InlineEditDeps;
  /** The one turn pipeline (the commit message). */
  turns: TurnService;
  /** The repository's rules (loaded on their own first use), for their list. */
  rules: () => Promise<RulesService>;
  logger: Logger;
}

/** The rooms, each with every command it registers. */
export function registerLazyRooms(deps: LazyRoomsDeps): vscode.Disposable[] {
  const { logger } = deps;
  return [
    registerLazyRoom(
      {
        name: 'export',
        commands: ['aiChat.exportChat', 'aiChat.copyConversation', 'aiChat.importConversation', 'aiChat.exportAll', 'aiChat.importAll'],
        load: () => import('./export/exportCommands'),
        register: (room) => room.registerExportCommands(deps.conversations, logger),
      },
      logger,
    ),
    registerLazyRoom(
      {
        name: 'inlineEdit',
        commands: ['aiChat.editSelection', 'aiChat.keepEdit', 'aiChat.undoEdit', 'aiChat.keepHunk', 'aiChat.undoHunk', 'aiChat.stopEdit'],
        load: () => import('./inlineEdit/inlineEdit'),
        register: (room) => room.registerInlineEdit(deps.inlineEdit),
      },
      logger,
    ),
    registerLazyRoom(
      {
        name: 'rulesList',
        commands: [SHOW_RULES_COMMAND],
        load: () => import('./rules/rulesCommands'),
        register: (room) => room.registerRulesCommands(deps.rules),
      },
      logger,
    ),
    registerLazyRoom(
      {
        name: 'sourceControl',
        commands: ['aiChat.writeCommitMessage', 'aiChat.stopCommitMessage'],
        load: () => import('./sourceControl/commitMessageCommand'),
        register: (room) => room.registerCommitMessage(deps.turns),
      },
      logger,
    ),
  ];
}
