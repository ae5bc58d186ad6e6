// The one turn pipeline of the extension: every surface that asks the service (the chat panel's
// session, @aichat, the language model provider, edit in the editor, the lightbulb, the terminal,
// Source Control) reads the key, the model, its price and the balance here once, asks the one gate
// (core/chat/sendGate.ts), answers through the one stream loop (core/chat/turn.ts) and is settled by
// the one accounting, which returns the charge to its caller. No `vscode` import: what it reads
// comes through the ports below, which the extension's services (keyStore, config, models, balance,
// turn accounting, client provider, instructions file) fill as they are.
import {
  budgetForModel, cannotPay, judgeRequest, runTurn, surfaceRequest, totalCredits,
  type BalanceLike, type ChatBackend, type GateInput, type GateVerdict, type ModelLike, type SendFacts, type SendJudge, type SendJudgement, type SendQuestion,
  type SurfaceRequest, type NativeTurn, type RequestRules, type SentRule, type RefusalReason, type TurnCharge, type TurnLogger, type TurnPort, type TurnResult, type TurnSink, type TurnSurface,
} from '../../../core';
import type { ErrorView } from '../../../protocol';

/** The user's API key (account/keyStore.ts). */
export interface KeyPort {
  /** The stored key, read (once) from the secret store. */
  get(): Promise<string | undefined>;
  /** Whether a text holds the key as last read. */
  holds(text: string): boolean;
}

/** The settings a turn reads (platform/config.ts). */
export interface TurnSettings {
  /** The selected model ('' when none is). */
  model: string;
  /** aiChat.systemPrompt. */
  systemPrompt: string;
  temperature: number;
  search: boolean;
  baseUrl: string;
  /** The context assumed for a model that states no max_tokens. */
  contextMaxTokens: number;
}

export interface SettingsPort {
  readonly settings: TurnSettings;
}

/** The service's models and their prices (account/modelService.ts). */
export interface ModelsPort {
  /** The models as last listed (undefined: not listed yet). */
  readonly models: readonly ModelLike[] | undefined;
  /** The price of one request to a model (null: unknown). */
  costOf(valueId: string): number | null;
}

/** The credit balance (account/balanceService.ts). */
export interface BalancePort {
  /** The balance as last read, or the error of the last read. */
  readonly state: { readonly balance?: BalanceLike; readonly error?: string };
  /** Reads the balance again from the service. */
  fetchTotal(): Promise<unknown>;
}

/** One turn, from its start to its settlement (account/turnAccounting.ts). */
export interface AccountedTurnPort {
  /** The backend to answer through. */
  backend(inner: ChatBackend): ChatBackend;
  /** The turn is over: settles it, once, and returns the charge. */
  settle(result: TurnResult): Promise<TurnCharge>;
}

export interface AccountingPort {
  start(surface: TurnSurface, model: string, expected: number | null | undefined, id?: string): AccountedTurnPort;
}

/** The service's client (platform/clientProvider.ts); it may fail to load, which fails that request. */
export interface ClientsPort {
  get(): ChatBackend;
}

/** The project instructions (pipeline/instructionsFile.ts). */
export interface InstructionsPort {
  /** Settles when the instructions file was first read. */
  readonly ready: Promise<unknown>;
  /** `own` (the user's system prompt) and the project instructions, as one system text. */
  systemPrompt(own: string): string;
}

/** The repository's rules (rules/rulesService.ts). */
export interface RulesPort {
  /** Settles when the rule files were found and read, and any that changed read again. */
  fresh(): Promise<unknown>;
  /** The rules for a request carrying `files` (the active editor's file is added), with why. */
  forRequest(files?: readonly string[]): RequestRules;
}

export interface TurnServiceDeps {
  keys: KeyPort;
  config: SettingsPort;
  models: ModelsPort;
  balance: BalancePort;
  accounting: AccountingPort;
  clients: ClientsPort;
  /** The project instructions (AGENTS.md), built when first needed. */
  instructions: () => InstructionsPort;
  /** The repository's rules, built when first needed (none: no rules). */
  rules?: () => RulesPort;
  logger: TurnLogger;
}

export type { SendFacts } from '../../../core';

/** A request of a surface other than the chat panel. */
export interface SurfaceTurnRequest {
  surface: TurnSurface;
  /** The new user message. */
  prompt: string;
  /** Other texts the request carries that must not hold the key (parts sent before the prompt). */
  also?: readonly string[];
  /** Earlier turns, oldest first: those that hold the key are left out, the rest fit newest first. */
  earlier?: readonly NativeTurn[];
  /** The surface's own instructions, sent after the user's system prompt and the project instructions. */
  system?: string;
  /** The request brings its own instructions (a language model request): the user's are not added. */
  ownInstructionsOnly?: boolean;
  /** The model to answer; default the selected one. */
  model?: string;
  /** The workspace files the request carries (workspace-relative): the rules that apply to them go with it. */
  files?: readonly string[];
  /** The request is about the conversation, not the code (a summary): the repository's rules do not go. */
  noRules?: boolean;
  /** Input budget in estimated tokens; default the model's. */
  budget?: number;
}

export type SurfaceTurnResult =
  | { kind: 'refused'; reason: RefusalReason; error: ErrorView }
  /**
   * The turn ran (it may have failed or been stopped: `result.ending`); `charge` settles later;
   * `rules`: the rules that went with it (the project instructions first), with why.
   */
  | { kind: 'ran'; result: TurnResult; charge: Promise<TurnCharge>; rules?: SentRule[] };

/** The price of the next request of a surface, as it is shown before Enter. */
export interface TurnQuote {
  model: string;
  /** The model's name as the service lists it (its id when unknown). */
  name: string;
  cost: number | null;
}

export class TurnService implements SendJudge {
  constructor(private readonly deps: TurnServiceDeps) {}

  /** A backend that gets the client when a request goes out (a client that cannot load fails that request, described). */
  private backend(): ChatBackend {
    return {
      chat: (req, opts) => this.deps.clients.get().chat(req, opts),
      chatStream: (req, opts) => this.deps.clients.get().chatStream(req, opts),
    };
  }

  /** The port of the chat panel's session: its turns answer and settle here. */
  readonly port: TurnPort = {
    start: (turn) => {
      const accounted = this.deps.accounting.start('panel', turn.model, turn.expected, `${turn.conversationId}/${turn.messageId}`);
      return { backend: accounted.backend(this.backend()), settle: (result) => accounted.settle(result) };
    },
  };

  /** Key, model, price, balance and instructions for a send to `model` (default: the selected one). */
  async facts(model?: string): Promise<SendFacts> {
    const key = await this.deps.keys.get();
    const instructions = this.deps.instructions();
    // The instructions and rules are read when first needed: the first request waits for that read.
    await Promise.all([instructions.ready, this.deps.rules?.().fresh()]);
    const settings = this.deps.config.settings;
    const target = model || settings.model;
    return {
      hasKey: !!key,
      model: target,
      cost: target ? this.deps.models.costOf(target) : null,
      balance: this.balance(),
      systemSetting: settings.systemPrompt,
      instructions: instructions.systemPrompt(''),
      budget: budgetForModel(this.deps.models.models, target, settings.contextMaxTokens).inputTokens,
    };
  }

  /** The credit balance as last read, when known. */
  balance(): number | undefined {
    const state = this.deps.balance.state;
    return state.balance && !state.error ? totalCredits(state.balance) : undefined;
  }

  /** Whether a text holds the user's API key (the key is read first). */
  async holdsKey(text: string): Promise<boolean> {
    await this.deps.keys.get();
    return this.holds(text);
  }

  /** Whether a text holds the key read by `facts`. */
  private holds(text: string): boolean {
    return this.deps.keys.holds(text);
  }

  /** What the gate reads besides the request's texts: the facts, the key check and the models. */
  private gate(facts: SendFacts): Omit<GateInput, 'text' | 'fit'> {
    return { ...facts, holdsKey: (text) => this.holds(text), models: this.deps.models.models };
  }

  /**
   * Reads the facts for `model` and judges with them. The balance shown may be old (credits bought
   * since): a verdict that it cannot pay is given only after the balance was fetched again and the
   * facts read again. The one place of that rule, for the chat panel and every other surface.
   */
  private async judged<T>(model: string | undefined, judge: (facts: SendFacts) => T, verdictOf: (judged: T) => GateVerdict): Promise<{ facts: SendFacts; judged: T }> {
    let facts = await this.facts(model);
    let judged = judge(facts);
    if (cannotPay(verdictOf(judged))) {
      await this.deps.balance.fetchTotal();
      facts = await this.facts(model);
      judged = judge(facts);
    }
    return { facts, judged };
  }

  /** The chat panel's send, Retry or Continue, judged by the gate with the facts read here. */
  async judge(question: SendQuestion): Promise<SendJudgement> {
    const { facts, judged } = await this.judged(
      question.model,
      (f) => {
        const { fit, ...queue } = question.state?.() ?? {};
        return judgeRequest({ ...this.gate(f), ...queue, maxChars: question.maxChars }, [question.text], fit);
      },
      (verdict) => verdict,
    );
    return { verdict: judged, facts };
  }

  /** What the next request with `model` (default: the selected one) costs; undefined when no model is selected. */
  quote(model?: string): TurnQuote | undefined {
    const id = model || this.deps.config.settings.model;
    if (!id) return undefined;
    const listed = this.deps.models.models?.find((m) => m.valueId === id);
    return { model: id, name: listed?.name ?? id, cost: this.deps.models.costOf(id) };
  }

  /** The rules of a surface's request (none for one that brings its own instructions). */
  private rulesOf(req: SurfaceTurnRequest): RequestRules {
    return req.ownInstructionsOnly || req.noRules ? { text: '', sent: [] } : (this.deps.rules?.().forRequest(req.files ?? []) ?? { text: '', sent: [] });
  }

  /** The request of a surface, built and judged by the gate with `facts`. */
  private build(req: SurfaceTurnRequest, facts: SendFacts, rules: RequestRules): SurfaceRequest {
    // The user's system prompt and the project instructions, the rules, then the surface's own.
    const ours = req.ownInstructionsOnly ? '' : this.deps.instructions().systemPrompt(this.deps.config.settings.systemPrompt);
    const system = [ours, rules.text, req.system ?? ''].filter((s) => s.trim() !== '').join('\n\n');
    const own = req.ownInstructionsOnly ? { systemSetting: '', instructions: '' } : {};
    return surfaceRequest({
      prompt: req.prompt,
      ...(req.also ? { also: req.also } : {}),
      ...(req.earlier ? { earlier: req.earlier } : {}),
      system,
      ...(req.system ? { ownSystem: req.system } : {}),
      budget: req.budget ?? facts.budget,
      gate: { ...this.gate(facts), ...own },
    });
  }

  /**
   * One request of a surface: the gate, then the turn streamed into `sink`, then its accounting
   * (returned as a promise: the charge settles after the balance shows it).
   */
  async run(req: SurfaceTurnRequest, sink: TurnSink, signal: AbortSignal): Promise<SurfaceTurnResult> {
    let rules: RequestRules = { text: '', sent: [] };
    const { facts, judged: built } = await this.judged(req.model, (f) => this.build(req, f, (rules = this.rulesOf(req))), (b) => b.verdict);
    if (!('messages' in built)) {
      const refused = built.verdict.kind === 'refuse' ? built.verdict : undefined;
      return { kind: 'refused', reason: refused?.reason ?? 'busy', error: refused?.error ?? { kind: 'validation', message: '', actions: [] } };
    }
    const settings = this.deps.config.settings;
    const accounted = this.deps.accounting.start(req.surface, facts.model, facts.cost);
    const result = await runTurn(
      accounted.backend(this.backend()),
      { messages: built.messages, model: facts.model, stream: true, temperature: settings.temperature, ...(settings.search ? { search: true } : {}) },
      sink,
      signal,
      { baseUrl: settings.baseUrl, logger: this.deps.logger },
    );
    return { kind: 'ran', result, charge: accounted.settle(result), rules: rules.sent };
  }
}
