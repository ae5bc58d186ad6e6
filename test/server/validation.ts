// Validation of POST /chat bodies, one precise message per rule of the interface
// (field path + rule), checked in document order; the first failure wins.
import { DEFAULT_MODEL, findModel, type ModelFixture } from './fixtures';

export const MESSAGE_ID_PATTERN = /^msg_[0-9a-f]{3}$/;
export const MODEL_PATTERN = /^[a-z-]+$/;
export const ROLES = ['user', 'system', 'assistant'] as const;
export type Role = (typeof ROLES)[number];

export interface ChatMessage {
  id?: string;
  role: Role;
  content: string;
}

export interface ChatRequestBody {
  messages: ChatMessage[];
  model?: string;
  stream: boolean;
  search: boolean;
  temperature: number;
}

export interface ValidChat {
  ok: true;
  request: ChatRequestBody;
  model: ModelFixture;
}

export interface InvalidChat {
  ok: false;
  /** Field path, e.g. "messages[1].id" ("body" for the whole body). */
  field: string;
  /** Short rule name, e.g. "pattern", "required", "enum". */
  rule: string;
  message: string;
}

export type ChatValidation = ValidChat | InvalidChat;

function fail(field: string, rule: string, message: string): InvalidChat {
  return { ok: false, field, rule, message };
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates a parsed JSON body against ChatRequest and the model table. */
export function validateChatBody(body: unknown): ChatValidation {
  if (!isRecord(body)) return fail('body', 'type', `request body must be a JSON object, got ${typeName(body)}`);

  const messages = body.messages;
  if (messages === undefined) return fail('messages', 'required', 'messages is required');
  if (!Array.isArray(messages)) return fail('messages', 'type', `messages must be an array, got ${typeName(messages)}`);
  if (messages.length < 1) return fail('messages', 'minItems', 'messages must contain at least 1 item');

  const seen = new Map<string, number>();
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    const at = `messages[${i}]`;
    if (!isRecord(m)) return fail(at, 'type', `${at} must be an object, got ${typeName(m)}`);
    if (m.role === undefined) return fail(`${at}.role`, 'required', `${at}.role is required`);
    if (typeof m.role !== 'string' || !(ROLES as readonly string[]).includes(m.role)) {
      return fail(`${at}.role`, 'enum', `${at}.role must be one of: ${ROLES.join(', ')} (got ${JSON.stringify(m.role)})`);
    }
    if (m.content === undefined) return fail(`${at}.content`, 'required', `${at}.content is required`);
    if (typeof m.content !== 'string') return fail(`${at}.content`, 'type', `${at}.content must be a string, got ${typeName(m.content)}`);
    if (m.id !== undefined) {
      if (typeof m.id !== 'string') return fail(`${at}.id`, 'type', `${at}.id must be a string, got ${typeName(m.id)}`);
      if (!MESSAGE_ID_PATTERN.test(m.id)) {
        return fail(`${at}.id`, 'pattern', `${at}.id must match ${MESSAGE_ID_PATTERN.source} (got ${JSON.stringify(m.id)})`);
      }
      const first = seen.get(m.id);
      if (first !== undefined) {
        return fail(`${at}.id`, 'unique', `${at}.id must be unique: "${m.id}" is already used by messages[${first}]`);
      }
      seen.set(m.id, i);
    }
    out.push({ ...(m.id !== undefined ? { id: m.id } : {}), role: m.role as Role, content: m.content });
  }

  if (body.model !== undefined) {
    if (typeof body.model !== 'string') return fail('model', 'type', `model must be a string, got ${typeName(body.model)}`);
    if (!MODEL_PATTERN.test(body.model)) {
      return fail('model', 'pattern', `model must match ${MODEL_PATTERN.source} (got ${JSON.stringify(body.model)})`);
    }
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') {
    return fail('stream', 'type', `stream must be a boolean, got ${typeName(body.stream)}`);
  }
  if (body.search !== undefined && typeof body.search !== 'boolean') {
    return fail('search', 'type', `search must be a boolean, got ${typeName(body.search)}`);
  }
  if (body.temperature !== undefined) {
    if (typeof body.temperature !== 'number' || !Number.isFinite(body.temperature)) {
      return fail('temperature', 'type', `temperature must be a number, got ${typeName(body.temperature)}`);
    }
    if (body.temperature < 0) return fail('temperature', 'minimum', `temperature must be >= 0 (got ${body.temperature})`);
    if (body.temperature > 2) return fail('temperature', 'maximum', `temperature must be <= 2 (got ${body.temperature})`);
  }

  const modelId = body.model ?? DEFAULT_MODEL;
  const model = findModel(modelId);
  if (!model) return fail('model', 'unknown', `model "${modelId}" is not a known model`);
  if (!model.isActive) return fail('model', 'inactive', `model "${modelId}" is inactive`);
  if (model.type !== 'text') return fail('model', 'type', `model "${modelId}" has type ${model.type}; chat needs a text model`);
  const search = body.search ?? false;
  if (search && !model.supportsSearch) return fail('search', 'unsupported', `search is not supported by model "${modelId}"`);

  return {
    ok: true,
    model,
    request: {
      messages: out,
      ...(body.model !== undefined ? { model: body.model } : {}),
      stream: body.stream ?? false,
      search,
      temperature: body.temperature ?? 1,
    },
  };
}
