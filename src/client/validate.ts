/** Validation at the boundary: requests before sending, responses on arrival. */
import type * as z from 'zod/mini';
import { ProtocolError, RequestValidationError, formatPath, ruleOf, valueAt } from './errors';
import { ChatRequestSchema, type ChatRequest } from './schemas';

/**
 * Checks a chat request against every rule of the interface. Returns the same object (typed, extra
 * fields kept) or throws RequestValidationError naming the first offending field (e.g. `messages[2].id`) and
 * the rule it breaks.
 */
export function validateChatRequest(req: unknown): ChatRequest {
  const r = ChatRequestSchema.safeParse(req);
  if (r.success) return req as ChatRequest; // the caller's object, extra fields included
  const issues = r.error.issues.map((issue) => ({
    field: issue.path.length ? formatPath(issue.path) : '(request)',
    rule: issue.path.length ? ruleOf(issue, valueAt(req, issue.path)) : 'must be an object',
  }));
  throw new RequestValidationError(issues);
}

/**
 * Parses a response body with `schema`; a missing or mistyped field -> ProtocolError naming it,
 * e.g. `balance.totalBalance is required (must be a number)`.
 */
export function parseResponse<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.length ? formatPath(issue.path) : '(body)';
  const rule = ruleOf(issue, issue.path.length ? valueAt(value, issue.path) : value);
  throw new ProtocolError(`Unexpected ${what} from the service: ${field} ${rule}`, { field });
}
