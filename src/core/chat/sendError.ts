// The error of the chat's last send, shown with the chat's status until the next send (or until its
// cause is fixed), and the text of a send that failed before any reply: what Retry sends when the
// box was emptied. VS Code-free.
import type { ChatError } from './errors';
import type { SessionEvent } from './sessionPorts';
import type { Carried } from '../context/sentWith';

export class SendError {
  private error: ChatError | undefined;
  private text: string | undefined;
  private carriedBy: Carried = {};

  constructor(private readonly emit: (event: SessionEvent) => void) {}

  get view(): ChatError | undefined {
    return this.error;
  }

  /** Text of a send that failed before any reply, for Retry when the box was emptied. */
  get failedText(): string | undefined {
    return this.text;
  }

  /** What that send carried (its attachments' files and record), sent again with it. */
  get failedCarried(): Carried {
    return this.carriedBy;
  }

  /** The send's turn was taken back (nothing of a reply came): the caller tells the chat. */
  failed(error: ChatError, text: string, with_: Carried = {}): void {
    this.error = error;
    this.text = text;
    this.carriedBy = with_;
  }

  /** A send refused before any request: the error is shown and the text goes back to the box. */
  reject(text: string, error: ChatError, keepForRetry: boolean, with_: Carried = {}): void {
    this.error = error;
    // A text that must not be sent as it is (it holds the API key) is not kept for Retry either.
    this.text = keepForRetry ? text : undefined;
    this.carriedBy = keepForRetry ? with_ : {};
    this.emit({ type: 'sendErrorChanged' });
    this.emit({ type: 'inputReturned', text });
  }

  /** A Retry or Continue refused before any request: the error is shown. */
  show(error: ChatError): void {
    this.error = error;
    this.emit({ type: 'sendErrorChanged' });
  }

  /** The error goes (e.g. its cause was fixed), and the chat is told. */
  dismiss(): void {
    if (!this.error) return;
    this.clear();
    this.emit({ type: 'sendErrorChanged' });
  }

  /** The error goes with the next send or conversation (whoever clears it tells the chat). */
  clear(): void {
    this.error = undefined;
    this.text = undefined;
    this.carriedBy = {};
  }
}
