import { PEM_END, PEM_PRIVATE_KEY_BEGIN, SECRET_RULES } from './secretRules';

export const REDACTED = '[redacted]';

/** Shorter values are not redacted verbatim: `abc` everywhere would garble a message. */
const MIN_VERBATIM = 4;

/**
 * Text with secrets removed, for anything shown, saved in a chat note or logged: the given values
 * verbatim (keys the app holds, values of the environment), then every shape in SECRET_RULES, then
 * the bodies of PEM private keys. Linear in the text's length; ordinary text is returned as is.
 */
export function redactText(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_VERBATIM) out = out.split(secret).join(REDACTED);
  }
  for (const rule of SECRET_RULES) out = out.replace(rule.pattern, (_whole, kept: string) => `${kept}${REDACTED}`);
  return redactPrivateKeys(out);
}

/**
 * Every PEM private key's body, from its BEGIN line to its END line (or to the end of the text: a
 * cut key is still a secret). One forward scan: each search for an END starts after the last one.
 */
function redactPrivateKeys(text: string): string {
  if (!text.includes('PRIVATE KEY')) return text;
  const parts: string[] = [];
  let at = 0;
  PEM_PRIVATE_KEY_BEGIN.lastIndex = 0;
  for (let m = PEM_PRIVATE_KEY_BEGIN.exec(text); m !== null; m = PEM_PRIVATE_KEY_BEGIN.exec(text)) {
    if (m.index < at) continue;
    const bodyStart = m.index + m[0].length;
    const end = text.indexOf(PEM_END, bodyStart);
    parts.push(text.slice(at, bodyStart), `\n${REDACTED}\n`);
    if (end < 0) {
      at = text.length;
      break;
    }
    at = end;
    PEM_PRIVATE_KEY_BEGIN.lastIndex = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
