// What the chat controller (controller.ts) is given: the session, the one turn pipeline's port, the
// settings and models it shows, the surfaces it tells, and the host that does in VS Code what the
// webview asks of it. VS Code-free.
import type { ChatSession, ModelLike, SendJudge, SessionEvent, StoredMessage } from '../../../core';
import type { ContextChip, HostMessage, InstructionsView, WebviewMessage } from '../../../protocol';
import type { ContextMeterFeed } from './contextMeter';
import type { PromptListView } from './presenter';
import type { QueueStore } from './savedQueue';
import type { AttachmentList } from './sendWithAttachments';

/** What the webview asks of VS Code (commands, links, files, settings, the chips, History, the `/` menu). */
export type HostAction = Extract<
  WebviewMessage,
  { type: 'resync' | 'dropUris' | 'openHistory' | 'selectModel' | 'setSearch' | 'setTemperature' | 'codeAction' | 'replyChangesAction' | 'openLink' | 'removeContext' | 'pinContext' | 'openSent' | 'contextSearch' | 'contextChoose' | 'expandPrompt' | 'promptsWanted' | 'runCommand' }
>;

/** The chat's host in VS Code, as the controller uses it (chat/chatHost.ts). */
export interface ChatHost {
  /** Does what the webview asked of VS Code. */
  act(action: HostAction): Promise<void>;
  /** The page of the chat's surface said `ready`: what was posted to it before, and whether that surface still holds the chat (then it is up to date). */
  surfaceReady(): { earlier: HostMessage[]; stillShown(): boolean };
  /** Reopens the conversation of the last window (once). */
  restoreCurrent(): Promise<void>;
  /** The draft kept for a reload that lost the webview's own (never one that holds the key). */
  draft: { load(): string | undefined; save(text: string | undefined): Promise<void> };
  /** Reads the key (and loads the models when there is one). */
  accountRead(): Promise<void>;
  warn(message: string): void;
}

/** Summaries of earlier turns (common/summarize.ts). */
export interface SummaryActions {
  start(ask: boolean): Promise<unknown>;
  stop(): void;
  edit(text: string): Promise<void>;
  remove(): void;
  onSessionEvent(event: SessionEvent): void;
}

/** What the controller reads of the settings and models, the pipeline it asks, and the surfaces it tells. */
export interface ChatControllerDeps {
  session: ChatSession;
  /** The one turn pipeline (TurnService): the verdict on a send, the balance, whether a text holds the key. */
  turns: SendJudge;
  settings: () => { model: string; search: boolean; temperature: number; fontSize: number; baseUrl: string };
  models: () => { models: readonly ModelLike[] | undefined; loading: boolean; error: string | undefined; costOf(id: string): number | null };
  /** Whether a key is known now (no prompt). */
  hasKey: () => boolean;
  /** Why the workspace's service address is not used, when it is not. */
  addressNotice?: () => string | undefined;
  modelNotice?: () => string | undefined;
  /** The project instructions file as the panel shows it, when there is one. */
  instructions?: () => InstructionsView | undefined;
  /** Asks for a model (quick pick); true when one is chosen. */
  pickModel: () => Promise<boolean>;
  /** Retry with…: the model for a new variant of a reply (`replyModel`: the reply's own), picked by the user. */
  pickVariantModel?: (replyModel: string | undefined) => Promise<string | undefined>;
  /** Compare: the reply shown (`shown`) beside another of its variants (`all`, oldest first) as a text diff. */
  compareVariants?: (all: StoredMessage[], shown: StoredMessage) => Promise<void>;
  /** Tells the user a send was refused because a reply is running. */
  notifyBusy: () => void;
  /** Tells the user the balance cannot pay for a message of this cost (nothing was sent). */
  notifyCannotPay?: (cost: number, total: number) => void;
  /** The surface showing the chat (queued until it is ready); undefined when none is open. */
  post: (message: HostMessage) => void;
  /** Tells the user a message is over the length the chat can take (it stays in the box). */
  notifyTooLong?: (length: number, max: number) => void;
  /** Keeps the queue with its conversation, so a reload does not lose what was typed. */
  queueStore?: QueueStore;
  /** Tells the user an edit of a queued message was refused because it holds the API key. */
  notifyHoldsKey?: () => void;
  /** Why the conversation shown is not the one the user had (the last window's could not be reopened). */
  notice?: () => string | undefined;
  /** The chips of the next message: they go with a message typed in the chat. */
  attachments?: AttachmentList & { chips(): ContextChip[]; pinsChanged?(): void };
  /** The context meter and boundary line. */
  meter?: ContextMeterFeed;
  summaries?: SummaryActions;
  /** The slash commands of the `/` menu. */
  prompts?: () => PromptListView;
  host?: ChatHost;
  /** What each reply's changes across files are now (Apply All, Undo, Redo), for a surface that starts. */
  replyChanges?: () => HostMessage | undefined;
  /** A reply is about to be taken out (Edit, Retry): whether to go on; a reply whose changes were applied asks whether to undo them too. */
  replyLeaving?: (replyId: string) => Promise<boolean>;
}
