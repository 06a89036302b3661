// Write stage, JSON output: what Kubernetes reads from a plain YAML scalar. Argo CD and kubectl turn YAML
// into JSON with sigs.k8s.io/yaml, which resolves plain scalars as go-yaml v2 does (YAML 1.1 rules), while
// rollstamp reads YAML 1.2. Where the two differ, the JSON rollstamp writes must hold Kubernetes' value.
//
// Mirrors `resolve` in go-yaml v2.4 resolve.go (go.yaml.in/yaml/v2, which sigs.k8s.io/yaml v1.6 uses): by
// the first character, a table of words (YAML 1.1 booleans y/yes/on/…, nulls, .inf/.nan), then for a sign
// or digit: `_` removed, Go's strconv.ParseInt with base 0 (so `0440` is octal 288, `0x1F`, `0o17`, `0b101`
// and a sign before any of them), ParseUint, then a decimal float. A timestamp stays a string (decode.go
// keeps the text when the target is interface{}, as it is for an unstructured object). Base-60 numbers
// are not resolved by go-yaml v2 either.

/** A plain scalar's value as Kubernetes reads it. */
export type Yaml11Value =
  | { type: 'str' }
  | { type: 'null' }
  | { type: 'bool'; value: boolean }
  | { type: 'int'; value: bigint }
  | { type: 'float'; value: number };

const WORDS = new Map<string, Yaml11Value>();
const word = (value: Yaml11Value, ...spellings: string[]): void => spellings.forEach((s) => WORDS.set(s, value));
word({ type: 'bool', value: true }, 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON');
word({ type: 'bool', value: false }, 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF');
word({ type: 'null' }, '', '~', 'null', 'Null', 'NULL');
word({ type: 'float', value: Number.NaN }, '.nan', '.NaN', '.NAN');
word({ type: 'float', value: Number.POSITIVE_INFINITY }, '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF');
word({ type: 'float', value: Number.NEGATIVE_INFINITY }, '-.inf', '-.Inf', '-.INF');

// First characters go-yaml looks further at; any other first character makes a string at once.
const HINT = /^[-+0-9yYnNtTfFoO~.]/;
// Go's integer syntax for base 0: an optional sign, then hex, octal (0o or a bare leading 0), binary or decimal.
const GO_INT = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
// go-yaml's yamlStyleFloat.
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
const STR: Yaml11Value = { type: 'str' };

/** How Kubernetes (go-yaml v2) reads a plain scalar written as `text`. */
export function resolveYaml11(text: string): Yaml11Value {
  if (text === '') return WORDS.get('')!;
  if (!HINT.test(text)) return STR;
  const known = WORDS.get(text);
  if (known) return known;
  const first = text[0]!;
  if (first === '.') return YAML_FLOAT.test(text) ? finite(Number(text)) : STR;
  if (!/[-+0-9]/.test(first)) return STR;
  const plain = text.replace(/_/g, '');
  const int = goInt(plain);
  if (int !== undefined) return { type: 'int', value: int };
  return YAML_FLOAT.test(plain) ? finite(Number(plain)) : STR;
}

/** Go's ParseInt(s, 0, 64), falling back to ParseUint(s, 0, 64) as go-yaml does; undefined when neither takes it. */
function goInt(s: string): bigint | undefined {
  const m = GO_INT.exec(s);
  if (!m) return undefined;
  const digits = m[2]!;
  // BigInt reads 0x/0o/0b itself; Go's bare leading-zero octal needs the 0o spelled out.
  const magnitude = BigInt(/^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits.length > 1 && /^0[xXoObB]/.test(digits) ? `0${digits[1]!.toLowerCase()}${digits.slice(2)}` : digits);
  const value = m[1] === '-' ? -magnitude : magnitude;
  if (value < INT64_MIN) return undefined;
  if (value > UINT64_MAX || (value > 2n ** 63n - 1n && m[1] !== '')) return undefined; // ParseUint takes no sign
  return value;
}

/** Go's ParseFloat fails on overflow (then go-yaml keeps the text as a string). */
function finite(n: number): Yaml11Value {
  return Number.isFinite(n) ? { type: 'float', value: n } : STR;
}

/** The key string sigs.k8s.io/yaml makes of a map key Kubernetes read as `v` (undefined: it refuses the key). */
export function yaml11KeyString(text: string, v: Yaml11Value): string | undefined {
  switch (v.type) {
    case 'str':
      return text;
    case 'bool':
      return String(v.value);
    case 'int':
      return v.value > 2n ** 63n - 1n ? undefined : v.value.toString();
    case 'float':
      return Number.isFinite(v.value) ? String(v.value) : undefined;
    default:
      return undefined;
  }
}
