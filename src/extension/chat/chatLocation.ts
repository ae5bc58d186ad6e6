// Where the chat lives: the editor panel's type, and the two declarations of the side bar view
// (primary and secondary side bar), of which aiChat.chatLocation shows one.
import * as vscode from 'vscode';

export const CHAT_VIEW_TYPE = 'aiChat.chat';
/** The side bar view (package.json contributes.views), shown while aiChat.chatLocation is "sideBar". */
export const CHAT_SIDEBAR_VIEW = 'aiChat.chatView';
/** The same chat declared in the secondary side bar, shown while aiChat.chatLocation is "secondarySideBar". */
export const CHAT_SECONDARY_VIEW = 'aiChat.chatViewSecondary';
export const CHAT_VIEWS = [CHAT_SIDEBAR_VIEW, CHAT_SECONDARY_VIEW] as const;
export type ChatLocation = 'sideBar' | 'secondarySideBar';

/** Where the user keeps the chat view (the manifest's `when` clauses show one view of the two). */
export function chatLocation(): ChatLocation {
  return vscode.workspace.getConfiguration('aiChat').get<string>('chatLocation') === 'secondarySideBar' ? 'secondarySideBar' : 'sideBar';
}

export function chatViewId(): string {
  return chatLocation() === 'secondarySideBar' ? CHAT_SECONDARY_VIEW : CHAT_SIDEBAR_VIEW;
}
