import axios, { AxiosError, type AxiosInstance, type AxiosRequestConfig } from 'axios';
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
  if (!silent) {
    if (err.code === Code.Untoken) handleUntoken();
    else if (err.code === Code.Error) feedback().message.error({ content: err.message, duration: TOAST_MS / 1000 });
    else feedback().notification.error({ title: err.message, duration: NOTIFICATION_MS / 1000 });
  } else if (err.code === Code.Untoken) {
    useSession.getState().clear();
  }
  throw err;
}

/** The axios instance of spec §7: /api prefix, 30 s timeout, JSON by default, the token header when there is a token. */
export function createHttp(adapter?: AxiosRequestConfig['adapter']): AxiosInstance {
  const instance = axios.create({ baseURL: '/api', timeout: REQUEST_TIMEOUT_MS, headers: { 'Content-Type': 'application/json' }, adapter });
  instance.interceptors.request.use((config) => {
    const token = cookies.get(StorageKey.token);
    if (token) config.headers.set('token', token);
    config.headers.set('lang', currentLang());
    return config;
  });
  return instance;
}

let instance = createHttp();
/** Tests swap the transport. */
export function useAdapter(adapter: AxiosRequestConfig['adapter']): void {
  instance = createHttp(adapter);
}

async function send<T>(config: AxiosRequestConfig, opts: CallOptions = {}): Promise<T> {
  try {
    const res = await instance.request({ ...config, responseType: opts.responseType ?? 'json', signal: opts.signal });
    // blob and arraybuffer answers pass through untouched
    if (opts.responseType === 'blob' || opts.responseType === 'arraybuffer') return res.data as T;
    const body = res.data as Envelope<T>;
    if (body && body.code === Code.Ok) return body.data;
    return report(new ApiError(body?.code ?? 0, body?.msg || t('http.default'), body?.data ?? null), opts.silent);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    const ax = e as AxiosError<Partial<Envelope>>;
    if (axios.isCancel(e)) throw new ApiError(0, 'canceled');
    const body = ax.response?.data;
    const code = typeof body?.code === 'number' ? body.code : (ax.response?.status ?? 0);
    return report(new ApiError(code === Code.Ok ? 0 : code, body?.msg || t('http.default'), body?.data ?? null), opts.silent);
  }
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
  return send<GetAnswer<K>>({ method: 'GET', url: `/index/${action}`, params: input }, opts);
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
  return dedupeWrite(`${action} upload ${Math.random()}`, () =>
    send<PostAnswer<K>>({ method: 'POST', url: `/index/${action}`, data: form, headers: { 'Content-Type': 'multipart/form-data' } }, opts),
  );
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
};
