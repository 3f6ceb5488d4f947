// Amounts are integers in cents so sums never drift; rounding is explicit.

export function fromCents(cents, currency = 'USD') {
  if (!Number.isInteger(cents)) throw new TypeError('cents must be an integer');
  return { cents, currency };
}

export function parseAmount(text, currency = 'USD') {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  const body = negative ? trimmed.slice(1) : trimmed;
  const [whole, fraction = ''] = body.split('.');
  if (whole === '' || fraction.length > 2) throw new TypeError(`invalid amount: ${text}`);
  const digits = `${whole}${fraction.padEnd(2, '0')}`;
  for (const ch of digits) {
    if (ch < '0' || ch > '9') throw new TypeError(`invalid amount: ${text}`);
  }
  const cents = Number(digits);
  return fromCents(negative ? -cents : cents, currency);
}

function sameCurrency(a, b) {
  if (a.currency !== b.currency) {
    throw new TypeError(`currency mismatch: ${a.currency} and ${b.currency}`);
  }
}

export function add(a, b) {
  sameCurrency(a, b);
  return fromCents(a.cents + b.cents, a.currency);
}

export function subtract(a, b) {
  sameCurrency(a, b);
  return fromCents(a.cents - b.cents, a.currency);
}

export function roundHalfEven(value) {
  const floor = Math.floor(value);
  const diff = value - floor;
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

export function multiply(money, factor) {
  return fromCents(roundHalfEven(money.cents * factor), money.currency);
}

export function percent(money, rate) {
  return multiply(money, rate / 100);
}

export function allocate(money, ratios) {
  if (ratios.length === 0) throw new RangeError('ratios must not be empty');
  const total = ratios.reduce((sum, r) => sum + r, 0);
  if (total <= 0) throw new RangeError('ratios must sum to more than zero');
  const shares = ratios.map((r) => Math.floor((money.cents * r) / total));
  let remainder = money.cents - shares.reduce((sum, s) => sum + s, 0);
  for (let i = 0; remainder > 0; i++) {
    shares[i % shares.length] += 1;
    remainder -= 1;
  }
  return shares.map((cents) => fromCents(cents, money.currency));
}

export function sum(amounts, currency = 'USD') {
  let total = fromCents(0, currency);
  for (const amount of amounts) total = add(total, amount);
  return total;
}

export function compare(a, b) {
  sameCurrency(a, b);
  if (a.cents === b.cents) return 0;
  return a.cents < b.cents ? -1 : 1;
}

export function format(money, options = {}) {
  const separator = options.thousands ?? ',';
  const negative = money.cents < 0;
  const abs = Math.abs(money.cents);
  const whole = String(Math.floor(abs / 100));
  const fraction = String(abs % 100).padStart(2, '0');
  let grouped = '';
  for (let i = 0; i < whole.length; i++) {
    const fromEnd = whole.length - i;
    grouped += whole[i];
    if (fromEnd > 1 && fromEnd % 3 === 1) grouped += separator;
  }
  const symbol = options.symbol ?? '$';
  return `${negative ? '-' : ''}${symbol}${grouped}.${fraction}`;
}
