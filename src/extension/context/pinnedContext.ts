// The files and ranges pinned to the conversation shown: read again at every send (an open
// editor's unsaved text first, else the file on disk), so a pin is never a stale copy; the last
// reading feeds the chips and the context meter. The pins themselves are the conversation's
// (src/core/context/pins.ts), stored with it.
import * as vscode from 'vscode';
import { fileAttachment, languageFromPath, pinKey, rangeFromText, readFileAttachment, type Attachment, type Pin } from '../../core';
import { MAX_VIRTUAL_FILE_BYTES, maxKB } from '../platform/editorFacts';
import { linkLeadingOut } from './linkLeadingOut';
import { findInWorkspace } from './openSent';

/** Where the pins live: the conversation shown (its store saves them). */
export interface PinPort {
  get(): readonly Pin[];
  set(pins: Pin[]): void;
}

export class PinnedContext {
  /** The last reading of each pin (by key); a pin whose file is gone has none. */
  private read = new Map<string, Attachment>();
  /** Pins left out at the last reading because their file is a link out of the workspace: where it leads. */
  private leadingOut = new Map<string, string>();
  private readonly ids = new Map<string, string>();
  private generation = 0;

  constructor(
    readonly port: PinPort,
    private readonly newId: () => string,
  ) {}

  /** The chip id of a pin (kept while the pin is). */
  idOf(pin: Pin): string {
    const key = pinKey(pin);
    let id = this.ids.get(key);
    if (!id) this.ids.set(key, (id = this.newId()));
    return id;
  }

  pinById(id: string): Pin | undefined {
    return this.port.get().find((p) => this.ids.get(pinKey(p)) === id);
  }

  /** The pins as last read, in pin order (for the chips and the meter). */
  last(): Attachment[] {
    return this.port.get().flatMap((p) => this.read.get(pinKey(p)) ?? []);
  }

  /** Whether this pin's file could not be read at the last reading. */
  missing(pin: Pin): boolean {
    return !this.read.has(pinKey(pin));
  }

  /** Where this pin's file really is, when the last reading left it out as a link out of the workspace. */
  leadsOut(pin: Pin): string | undefined {
    return this.leadingOut.get(pinKey(pin));
  }

  /** Reads every pin again; resolves with what goes with a message now. */
  async refresh(): Promise<Attachment[]> {
    const generation = ++this.generation;
    const next = new Map<string, Attachment>();
    const out = new Map<string, string>();
    for (const pin of this.port.get()) {
      const a = await this.readPin(pin).catch(() => undefined);
      if (typeof a === 'string') out.set(pinKey(pin), a);
      else if (a) next.set(pinKey(pin), a);
    }
    // A newer reading (the pins changed meanwhile) wins.
    if (generation === this.generation) {
      this.read = next;
      this.leadingOut = out;
    }
    return this.port.get().flatMap((p) => next.get(pinKey(p)) ?? []);
  }

  /** Whether a change to this document touches a pin. */
  touches(uri: vscode.Uri): boolean {
    const pins = this.port.get();
    if (!pins.length || uri.scheme === 'output') return false;
    const path = vscode.workspace.asRelativePath(uri, false);
    return pins.some((p) => p.path === path);
  }

  /** The pin as it reads now; where it leads when its file has become a link out of the workspace. */
  private async readPin(pin: Pin): Promise<Attachment | string | undefined> {
    const uri = await findInWorkspace(pin.path);
    if (!uri) return undefined;
    // Checked at every reading, not only when pinned: the link may have been changed since.
    const leadsTo = await linkLeadingOut(uri);
    if (leadsTo) return leadsTo;
    const id = this.idOf(pin);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (pin.kind === 'range') {
      const text = open ? open.getText() : await this.readText(uri);
      return text === undefined ? undefined : rangeFromText(id, pin, open?.languageId ?? languageFromPath(pin.path), text, maxKB());
    }
    if (open) {
      const text = open.getText();
      const max = maxKB() * 1024 + 4;
      const bytes = new TextEncoder().encode(text.length > max ? text.slice(0, max) : text);
      const size = text.length > max ? new TextEncoder().encode(text).length : bytes.length;
      const r = fileAttachment(id, pin.path, bytes, maxKB(), open.languageId, size);
      return r.ok ? r.attachment : undefined;
    }
    const r = uri.scheme === 'file' ? await readFileAttachment(id, pin.path, uri.fsPath, maxKB()) : fileAttachment(id, pin.path, (await this.readBytes(uri)) ?? new Uint8Array(), maxKB());
    return r.ok ? r.attachment : undefined;
  }

  private async readBytes(uri: vscode.Uri): Promise<Uint8Array | undefined> {
    const stat = await vscode.workspace.fs.stat(uri);
    return stat.size > MAX_VIRTUAL_FILE_BYTES ? undefined : vscode.workspace.fs.readFile(uri);
  }

  private async readText(uri: vscode.Uri): Promise<string | undefined> {
    const bytes = await this.readBytes(uri);
    return bytes && new TextDecoder('utf-8').decode(bytes);
  }
}
