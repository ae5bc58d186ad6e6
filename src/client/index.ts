/**
 * Typed client of the chat service. Public API:
 * - ChatServiceClient (chat, chatStream, balance, models, subscriptions, close), ChatStream, collectStream;
 * - zod schemas and the types inferred from them; validateChatRequest;
 * - the error hierarchy (every error has a stable `kind`);
 * - the stream decoder (pure) for other transports.
 */
export { ChatServiceClient, DEFAULT_TIMEOUTS, MAX_REPLY_CHARS, buildApiError } from './client';
export type { ChatServiceClientOptions, ClientTimeouts, RequestOptions, RetryNotice } from './client';
export { ChatStream, collectStream } from './stream';
export type { CollectedReply, StreamOutcome } from './stream';
export type { Logger } from './logger';
export { silentLogger } from './logger';
export { validateChatRequest, parseResponse } from './validate';
export type { RetryOptions } from './retry';
export { DEFAULT_RETRY } from './retry';
export {
  APIError,
  AuthenticationError,
  ChatServiceError,
  ConnectionError,
  InsufficientCreditsError,
  InvalidInputError,
  ProtocolError,
  RateLimitError,
  ReplyTooLargeError,
  RequestValidationError,
  ServerError,
  StreamEventError,
  TimeoutError,
  UserAbortError,
  parseRetryAfter,
} from './errors';
export type { ErrorKind, ResponseHeaders, TimeoutPhase } from './errors';
export {
  BalanceResponseSchema,
  BalanceSchema,
  ChatRequestSchema,
  ChatResponseSchema,
  ChunkEventSchema,
  CreditSchema,
  DailyCreditSchema,
  DoneEventSchema,
  ErrorBodySchema,
  ErrorPartEventSchema,
  StepFinishEventSchema,
  KNOWN_ERROR_CODES,
  MESSAGE_ID_PATTERN,
  MESSAGE_ROLES,
  MODEL_ID_PATTERN,
  MessageSchema,
  ModelListSchema,
  ModelSchema,
  StartEventSchema,
  StreamEventSchema,
  SubscriptionListSchema,
  SubscriptionSchema,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
  UsageSchema,
  isValidModelId,
} from './schemas';
export type {
  Balance,
  BalanceResponse,
  ChatRequest,
  ChatResponse,
  ChunkEvent,
  Credit,
  DailyCredit,
  DoneEvent,
  ErrorBody,
  ErrorPartEvent,
  StepFinishEvent,
  KnownErrorCode,
  Message,
  Model,
  StartEvent,
  StreamEvent,
  StreamEventKind,
  Subscription,
  Usage,
} from './schemas';
export { EventDecoder, LineDecoder, decodeEventStream, framingFromContentType, sniffFraming } from './decoder';
export type { DecodedItem, Framing } from './decoder';
