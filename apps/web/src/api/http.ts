import {
  Code,
  NOTIFICATION_MS,
  REQUEST_TIMEOUT_MS,
  TOAST_MS,
  type Envelope,
  type GetAction,
  type GetAnswer,
  type GetInput,
  type PostAction,
  type PostAnswer,
  type PostInput,
} from '@wantuo/shared';
import { createWriteDeduper } from '../lib/click-guard';
import { cookies, StorageKey } from '../lib/storage';
import { currentLang, t } from '../stores/preferences';
import { useSession } from '../stores/session';
import { feedback } from './feedback';

/** A rejected call: the envelope's code and message (or HTTP/network failure as code 0). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export interface CallOptions {
  /** no toast, notification or dialog on failure (the caller handles it, or it must stay silent) */
  silent?: boolean;
  responseType?: 'json' | 'blob' | 'arraybuffer';
  signal?: AbortSignal;
}

/** Where "re-login" goes; the router sets it so it can carry the current location. */
let onRelogin: () => void = () => window.location.assign(`/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
export function setReloginHandler(fn: () => void): void {
  onRelogin = fn;
}

/**
 * What a parent's call refused with `privacy.consent_required` does (data `{ consent_required: true }`: the guardian has
 * not accepted the current documents): the phone app and the parent console send the guardian to the consent screen.
 * Answers whether it did (then nothing else is shown for the refusal); none by default.
 */
let onConsentRequired: () => boolean = () => false;
export function setConsentHandler(fn: (() => boolean) | null): void {
  onConsentRequired = fn ?? (() => false);
}
const consentRequired = (err: ApiError) =>
  err.code === Code.Error && (err.data as { consent_required?: unknown } | null)?.consent_required === true && onConsentRequired();

let untokenDialogOpen = false;

/** Spec §8 row 1: clear the session; one "system prompt" dialog (re-login / cancel), a toast if one is already open. */
function handleUntoken(): void {
  useSession.getState().clear();
  const f = feedback();
  if (untokenDialogOpen) {
    f.message.error({ content: t('http.invalid_session'), duration: TOAST_MS / 1000 });
    return;
  }
  untokenDialogOpen = true;
  f.modal.confirm({
    title: t('http.system_prompt'),
    content: t('http.session_expired'),
    okText: t('http.relogin'),
    cancelText: t('common.cancel'),
    onOk: () => onRelogin(),
    afterClose: () => {
      untokenDialogOpen = false;
    },
  });
}

function report(err: ApiError, silent: boolean | undefined): never {
  if (consentRequired(err)) throw err;
  if (!silent) {
    if (err.code === Code.Untoken) handleUntoken();
    else if (err.code === Code.Error) feedback().message.error({ content: err.message, duration: TOAST_MS / 1000 });
    else feedback().notification.error({ title: err.message, duration: NOTIFICATION_MS / 1000 });
  } else if (err.code === Code.Untoken) {
    useSession.getState().clear();
  }
  throw err;
}

/** One request as the wrapper sends it: what the transport needs (and what tests look at). */
export interface HttpRequest {
  method: 'GET' | 'POST';
  /** under /api, without the query string */
  url: string;
  params?: Record<string, unknown>;
  /** a JSON body (sent as text) or a multipart form */
  body?: string | FormData;
  headers: Headers;
  responseType: 'json' | 'blob' | 'arraybuffer';
  /** ms before the request is abandoned */
  timeout: number;
  signal?: AbortSignal;
}

/** What a transport answers: the HTTP status and the body, parsed as asked (an unparsable JSON body is null). */
export interface HttpResponse {
  status: number;
  data: unknown;
}

export type Transport = (req: HttpRequest) => Promise<HttpResponse>;

/** `{ page: 2, ids: [1, 2] }` → `page=2&ids=1&ids=2` (nothing for undefined or null). */
export function queryString(params: Record<string, unknown> | undefined): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) q.append(k, String(item));
    else q.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

/** The browser's fetch, with the 30 s timeout of spec §7 and the caller's abort signal. */
export const fetchTransport: Transport = async (req) => {
  const timeout = AbortSignal.timeout(req.timeout);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const res = await fetch(`/api${req.url}${queryString(req.params)}`, {
    method: req.method,
    headers: req.headers,
    body: req.body,
    signal,
    credentials: 'same-origin',
  });
  if (req.responseType === 'blob') return { status: res.status, data: res.ok ? await res.blob() : await res.json().catch(() => null) };
  if (req.responseType === 'arraybuffer') return { status: res.status, data: res.ok ? await res.arrayBuffer() : await res.json().catch(() => null) };
  return { status: res.status, data: await res.json().catch(() => null) };
};

let transport: Transport = fetchTransport;
/** Tests swap the transport. */
export function useTransport(next: Transport): void {
  transport = next;
}

/** The headers of spec §7: JSON by default (a form sets its own boundary), the token when there is one, the language. */
function headersOf(body: HttpRequest['body']): Headers {
  const headers = new Headers();
  if (!(body instanceof FormData)) headers.set('Content-Type', 'application/json');
  const token = cookies.get(StorageKey.token);
  if (token) headers.set('token', token);
  headers.set('lang', currentLang());
  return headers;
}

interface SendConfig {
  method: 'GET' | 'POST';
  url: string;
  params?: Record<string, unknown>;
  data?: unknown;
}

async function send<T>(config: SendConfig, opts: CallOptions = {}): Promise<T> {
  const body = config.data === undefined ? undefined : config.data instanceof FormData ? config.data : JSON.stringify(config.data);
  const responseType = opts.responseType ?? 'json';
  let res: HttpResponse;
  try {
    res = await transport({
      method: config.method,
      url: config.url,
      params: config.params,
      body,
      headers: headersOf(body),
      responseType,
      timeout: REQUEST_TIMEOUT_MS,
      signal: opts.signal,
    });
  } catch (e) {
    if (opts.signal?.aborted) throw new ApiError(0, 'canceled');
    void e;
    // the network failed or the 30 s ran out
    return report(new ApiError(0, t('http.default')), opts.silent);
  }
  // blob and arraybuffer answers pass through untouched
  if (responseType !== 'json' && res.status >= 200 && res.status < 300) return res.data as T;
  const envelope = res.data as Partial<Envelope<T>> | null;
  if (res.status >= 200 && res.status < 300 && envelope && envelope.code === Code.Ok) return envelope.data as T;
  const code =
    typeof envelope?.code === 'number' && envelope.code !== Code.Ok ? envelope.code : res.status >= 200 && res.status < 300 ? 0 : res.status;
  return report(new ApiError(code, envelope?.msg || t('http.default'), envelope?.data ?? null), opts.silent);
}

/** The arguments after the action's name: its input (optional when every field is) and the call's options. */
type Rest<I> = undefined extends I
  ? [input?: I | undefined, opts?: CallOptions]
  : Record<never, never> extends I
    ? [input?: I | undefined, opts?: CallOptions]
    : [input: I, opts?: CallOptions];

/**
 * GET /api/index/<action> with the input as query parameters. The action's name, input and answer types come from its
 * declaration in packages/shared/src/api: `get('contractList', { page })` is a `Promise<ContractListAnswer>`.
 */
export function get<K extends GetAction>(action: K, ...[input, opts]: Rest<GetInput<K>>): Promise<GetAnswer<K>> {
  return send<GetAnswer<K>>({ method: 'GET', url: `/index/${action}`, params: input as Record<string, unknown> | undefined }, opts);
}

const dedupeWrite = createWriteDeduper();

/** POST /api/index/<action> with a JSON body (typed by its declaration); the same write twice within 2000 ms is sent once (spec §5). */
export function post<K extends PostAction>(action: K, ...[input, opts]: Rest<PostInput<K>>): Promise<PostAnswer<K>> {
  const body = input ?? {};
  return dedupeWrite(`${action} ${JSON.stringify(body)}`, () => send<PostAnswer<K>>({ method: 'POST', url: `/index/${action}`, data: body }, opts));
}

/** A read declared as POST (a filter body, e.g. studentExamList's several classes and subjects): neither deduped nor a write for the click guard. */
export function postRead<K extends PostAction>(action: K, ...[input, opts]: Rest<PostInput<K>>): Promise<PostAnswer<K>> {
  return send<PostAnswer<K>>({ method: 'POST', url: `/index/${action}`, data: input ?? {} }, opts);
}

/** POST /api/index/<action> as multipart/form-data (file uploads): each counts as a write for the click guard. */
export function upload<K extends PostAction>(action: K, form: FormData, opts?: CallOptions): Promise<PostAnswer<K>> {
  return dedupeWrite(`${action} upload ${Math.random()}`, () => send<PostAnswer<K>>({ method: 'POST', url: `/index/${action}`, data: form }, opts));
}

/** POST /api/sms/send */
export function sendSms(mobile: string, event: PostInput<'sms/send'>['event']): Promise<PostAnswer<'sms/send'>> {
  return send({ method: 'POST', url: '/sms/send', data: { mobile, event } });
}

/**
 * The local WeChat Pay sandbox (design.md §2), present only when the API has no merchant settings (never with real
 * money): whether it is there, and "the payer scanned and paid".
 */
export const wechatSandbox = {
  async available(): Promise<boolean> {
    try {
      return (await send<{ sandbox: boolean }>({ method: 'GET', url: '/dev/wechatpay/status' }, { silent: true })).sandbox === true;
    } catch {
      return false;
    }
  },
  pay(out_trade_no: string): Promise<unknown> {
    return send({ method: 'POST', url: '/dev/wechatpay/simulate', data: { out_trade_no } });
  },
  /** The sandbox's stand-in for WeChat's onboarding (进件) of a school's sub-merchant: it then takes its payments. */
  onboard(sub_mchid: string, name: string): Promise<unknown> {
    return send({ method: 'POST', url: '/dev/wechatpay/subMerchants', data: { sub_mchid, name } });
  },
};
