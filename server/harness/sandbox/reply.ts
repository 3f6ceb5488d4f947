// A hook's reply as the guest encodes it (guest/runtime.js __encode): '' (returned nothing),
// 'V' + JSON of the value, or 'K' + JSON of a value whose `info` is the untouched lazy info.
import type { Json } from '../../../bridges/core/types.ts';
import { HarnessCodeError } from '../../errors.ts';
import { formatBytes, MAX_HOOK_REPLY_BYTES } from './limits.ts';

/** The reply's value, or undefined when the hook returned nothing or what it was sent. */
export function decodeReply(
  hook: string,
  text: string,
  sentJson: string | undefined,
  lazyInfo: Record<string, Json> | undefined,
): Json | undefined {
  if (text === '') return undefined;
  const json = text.slice(1);
  if (sentJson !== undefined && json === sentJson) return undefined;
  // A UTF-16 length times 3 bounds the UTF-8 size: count bytes only for replies near the cap.
  if (json.length * 3 > MAX_HOOK_REPLY_BYTES) {
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > MAX_HOOK_REPLY_BYTES) {
      throw new HarnessCodeError(
        `hook ${hook} returned ${formatBytes(bytes)}; the limit is ${formatBytes(MAX_HOOK_REPLY_BYTES)}`,
        hook,
      );
    }
  }
  const value = JSON.parse(json) as Json;
  if (
    text[0] === 'K' &&
    lazyInfo &&
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value)
  ) {
    return { ...value, info: lazyInfo };
  }
  return value;
}
