// The chat's message box as the features see it: the one way a feature (the editor's prompts, the
// lightbulb, the terminal) reaches the chat. extension.ts wires it to the chat panel, built on its
// first use; no feature imports the panel.

export interface ChatBox {
  /** Puts an editable prompt in the message box and shows the chat; nothing is sent. */
  insertPrompt(text: string): Promise<void>;
  /** Sends the text as the user's message (as if typed and sent). */
  sendText(text: string): Promise<void>;
  /** The unsent text in the message box (as the chat last kept it), if any. */
  draft(): string | undefined;
  /** Shows the chat (`preserveFocus`: leave the focus where it is). */
  show(preserveFocus?: boolean): Promise<void>;
}
