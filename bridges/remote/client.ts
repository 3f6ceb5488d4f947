// HTTP client for one remote environment server. Every failure of the server or the network is an
// EnvInfraError (infra, never scored as the agent's failure) whose message names the server, the
// route and what went wrong.
import type { z } from 'zod';
import { EnvInfraError } from '../core/types.ts';
import { ErrorReplyZ } from './protocol.ts';

/** The server answered with an HTTP error status (its `{error}` text is in the message). */
export class RemoteHttpError extends EnvInfraError {
  constructor(
    message: string,
    readonly status: number,
    readonly serverMessage: string,
  ) {
    super(message);
    this.name = 'RemoteHttpError';
  }
}

export interface RemoteClientOptions {
  url: string;
  /** Shown in error messages. */
  name: string;
  /** Per-request limit (default 10 s). */
  timeoutMs?: number;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid reply';
  const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
  return `${path}: ${issue.message}`;
}

function causeText(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export class RemoteClient {
  readonly url: string;
  readonly name: string;
  readonly timeoutMs: number;

  constructor(options: RemoteClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new EnvInfraError(`remote env '${options.name}': '${options.url}' is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new EnvInfraError(`remote env '${options.name}': '${options.url}' must be http(s)`);
    this.url = parsed.href.replace(/\/+$/, '');
    this.name = options.name;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async request<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'DELETE',
    route: string,
    schema: S,
    body?: unknown,
    timeoutMs = this.timeoutMs,
  ): Promise<z.infer<S>> {
    const where = `remote env '${this.name}' (${this.url}): ${method} ${route.split('?')[0]}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.url}${route}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new EnvInfraError(`${where} timed out after ${timeoutMs} ms`, { cause: error });
      throw new EnvInfraError(`${where}: cannot reach the server (${causeText(error)})`, {
        cause: error,
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const head = text.slice(0, 80).replace(/\s+/g, ' ');
      throw new EnvInfraError(
        `${where}: HTTP ${response.status} reply is not JSON (${JSON.stringify(head)})`,
      );
    }
    if (!response.ok) {
      const error = ErrorReplyZ.safeParse(json);
      const message = error.success ? error.data.error : text.slice(0, 200);
      throw new RemoteHttpError(
        `${where}: HTTP ${response.status}: ${message}`,
        response.status,
        message,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new EnvInfraError(
        `${where}: the reply does not follow the protocol (${describeIssue(parsed.error)})`,
      );
    return parsed.data;
  }
}
