/**
 * Tokenizer and parser for CoreDNS's Corefile (Caddyfile syntax, coredns.io/manual
 * "Configuration"): server blocks with one or more keys, directives with arguments, nested
 * `{}` blocks, `#` comments, quoted strings, snippets `(name) {…}` and `import`.
 * `{$ENV}` placeholders stay as text and are reported. Pure logic, no Node imports.
 */

/** One lexical token with where it came from. */
export interface CorefileToken {
  text: string;
  /** 1-based line in `file`. */
  line: number;
  file: string;
  /** Quoted tokens are never braces or comments. */
  quoted: boolean;
  /** First token of its line: a new directive starts here. */
  nl: boolean;
}

/** A plugin line (`kubernetes cluster.local in-addr.arpa`) or a line inside a plugin's block. */
export interface CorefileDirective {
  name: string;
  args: string[];
  /** Lines of the nested `{}` block, null when there is none. */
  block: CorefileDirective[] | null;
  line: number;
  file: string;
}

/** One server block: keys like `.:53`, `consul:53`, `dns://mesh.local:53`, then its plugins. */
export interface CorefileServerBlock {
  keys: string[];
  directives: CorefileDirective[];
  line: number;
  file: string;
}

/** A parsed Corefile with imports expanded. */
export interface ParsedCorefile {
  serverBlocks: CorefileServerBlock[];
  /** One sentence each: env placeholders, imports that could not be resolved. */
  warnings: string[];
}

// Whitespace between tokens: Caddy's lexer uses Go's unicode.IsSpace, i.e. JS `\s` plus U+0085.
// The skip below and the end of an unquoted token must use the same set: when they differed,
// a `\v`, form feed, NBSP or U+2028 made an empty token without advancing (endless loop).
const SPACE_RE = /[\s\u0085]/;

/** Splits Corefile text into tokens (Caddyfile lexer rules: `#` starts a comment only at a token start). */
export function tokenizeCorefile(text: string, file = 'Corefile'): CorefileToken[] {
  const tokens: CorefileToken[] = [];
  let line = 1;
  let nl = true;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\n') { line++; nl = true; i++; continue; }
    if (SPACE_RE.test(ch)) { i++; continue; }
    if (ch === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const startLine = line;
    let value = '';
    let quoted = false;
    if (ch === '"') {
      quoted = true;
      i++;
      while (i < text.length && text[i] !== '"') {
        // `\"` is a literal quote; any other backslash stays as written (Caddy keeps it).
        if (text[i] === '\\' && text[i + 1] === '"') { value += '"'; i += 2; continue; }
        if (text[i] === '\n') line++;
        value += text[i];
        i++;
      }
      if (i >= text.length) throw new Error(`${file} line ${startLine}: a quoted string is never closed; add the closing quote.`);
      i++; // closing quote
    } else {
      while (i < text.length && !SPACE_RE.test(text[i]!)) { value += text[i]; i++; }
    }
    tokens.push({ text: value, line: startLine, file, quoted, nl });
    nl = false;
  }
  return tokens;
}

const isOpen = (t: CorefileToken | undefined) => t !== undefined && !t.quoted && t.text === '{';
const isClose = (t: CorefileToken | undefined) => t !== undefined && !t.quoted && t.text === '}';
const MAX_IMPORT_DEPTH = 10;
/**
 * Upper bound of tokens after import expansion. The depth bound alone does not stop fan-out:
 * a snippet importing another one 10 times, 10 levels deep, is 10^10 tokens (a hang, then out
 * of memory). Real Corefiles have a few hundred tokens.
 */
export const MAX_COREFILE_TOKENS = 20_000;
/** Upper bound of nested `{}` blocks; parseBlock recurses per level, so deeper input would overflow the stack. */
export const MAX_BLOCK_DEPTH = 64;

/** Basename of a path; `import` globs are matched against the extra files by name only. */
function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Converts a shell-style glob (`*`, `?`) into an anchored RegExp. */
function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

/** Removes `(name) {…}` snippet definitions from the top level and returns their bodies. */
function extractSnippets(tokens: CorefileToken[]): { rest: CorefileToken[]; snippets: Map<string, CorefileToken[]> } {
  const rest: CorefileToken[] = [];
  const snippets = new Map<string, CorefileToken[]>();
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const m = /^\((.+)\)$/.exec(t.text);
    if (depth === 0 && t.nl && !t.quoted && m && isOpen(tokens[i + 1])) {
      let j = i + 2;
      let d = 1;
      const body: CorefileToken[] = [];
      for (; j < tokens.length; j++) {
        const u = tokens[j]!;
        if (isOpen(u)) d++;
        if (isClose(u) && --d === 0) break;
        body.push(u);
      }
      if (j >= tokens.length) throw new Error(`${t.file} line ${t.line}: snippet ${t.text} is never closed; add the missing "}".`);
      snippets.set(m[1]!, body);
      i = j;
      continue;
    }
    if (isOpen(t)) depth++;
    if (isClose(t)) depth--;
    rest.push(t);
  }
  return { rest, snippets };
}

/** Replaces `import` lines by snippet bodies or extra files, recursively. */
function expandImports(
  tokens: CorefileToken[],
  ctx: {
    snippets: Map<string, CorefileToken[]>;
    extraFiles: Record<string, string> | undefined;
    warnings: string[];
    /** Tokens spliced in so far, across all levels (bounded by MAX_COREFILE_TOKENS). */
    total: { count: number };
  },
  depth: number,
): CorefileToken[] {
  const out: CorefileToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!(t.nl && !t.quoted && t.text === 'import')) { out.push(t); continue; }
    const args: CorefileToken[] = [];
    while (i + 1 < tokens.length && !tokens[i + 1]!.nl && !isOpen(tokens[i + 1]) && !isClose(tokens[i + 1])) args.push(tokens[++i]!);
    const target = args[0]?.text ?? '';
    if (depth >= MAX_IMPORT_DEPTH) {
      throw new Error(`${t.file} line ${t.line}: imports nest deeper than ${MAX_IMPORT_DEPTH} (a cycle?); fix the import of "${target}".`);
    }
    let spliced: CorefileToken[] = [];
    const snippet = ctx.snippets.get(target);
    if (snippet) {
      spliced = snippet;
    } else if (/[/*?]/.test(target)) {
      const re = globToRegExp(baseName(target));
      const names = Object.keys(ctx.extraFiles ?? {}).map(baseName).filter((n) => re.test(n)).sort();
      for (const name of names) {
        const key = Object.keys(ctx.extraFiles ?? {}).find((k) => baseName(k) === name)!;
        spliced = spliced.concat(tokenizeCorefile(ctx.extraFiles![key]!, name));
      }
      // A glob matching nothing is normal (k3s imports *.override even when there is none),
      // but if we were given no extra files at all we cannot tell.
      if (names.length === 0 && ctx.extraFiles === undefined) {
        ctx.warnings.push(`${t.file} line ${t.line}: "import ${target}" reads files that were not provided (coredns-custom ConfigMap?); zones they define are missing.`);
      }
    } else {
      ctx.warnings.push(`${t.file} line ${t.line}: "import ${target}" names no snippet or file known here; zones it defines are missing.`);
    }
    // The first imported token starts a line; the token after the import line already does.
    const copy = spliced.map((u, k) => (k === 0 ? { ...u, nl: true } : u));
    const expanded = expandImports(copy, ctx, depth + 1);
    ctx.total.count += expanded.length;
    if (ctx.total.count > MAX_COREFILE_TOKENS) {
      throw new Error(`${t.file} line ${t.line}: imports expand to more than ${MAX_COREFILE_TOKENS} tokens (repeated imports?); fix the import of "${target}".`);
    }
    // A loop, not push(...expanded): spreading a huge array overflows the call stack.
    for (const u of expanded) out.push(u);
  }
  return out;
}

/** Parses directives from `tokens[start]` until the `}` that closes the block (or the end). */
function parseBlock(tokens: CorefileToken[], start: number, topLevel: boolean, depth = 0): { directives: CorefileDirective[]; next: number } {
  if (depth > MAX_BLOCK_DEPTH) {
    const t = tokens[start - 1];
    throw new Error(`${t?.file ?? 'Corefile'} line ${t?.line ?? 0}: blocks nest deeper than ${MAX_BLOCK_DEPTH} levels; check the braces.`);
  }
  const directives: CorefileDirective[] = [];
  let i = start;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (isClose(t)) return { directives, next: i + 1 };
    if (isOpen(t)) throw new Error(`${t.file} line ${t.line}: "{" without a directive before it; remove it or name the plugin.`);
    const d: CorefileDirective = { name: t.text, args: [], block: null, line: t.line, file: t.file };
    i++;
    while (i < tokens.length && !tokens[i]!.nl && !isOpen(tokens[i]) && !isClose(tokens[i])) d.args.push(tokens[i++]!.text);
    if (isOpen(tokens[i])) {
      const inner = parseBlock(tokens, i + 1, false, depth + 1);
      d.block = inner.directives;
      i = inner.next;
    }
    directives.push(d);
  }
  if (!topLevel) {
    const first = tokens[start - 1];
    throw new Error(`${first?.file ?? 'Corefile'} line ${first?.line ?? 0}: a block opened here is never closed; add the missing "}".`);
  }
  return { directives, next: i };
}

/** Reports `{$NAME}` placeholders: CoreDNS fills them from its own environment, unknown here. */
function placeholderWarnings(tokens: CorefileToken[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tokens) {
    for (const m of t.text.matchAll(/\{\$([^}]*)\}/g)) {
      const key = `${t.file}:${t.line}:${m[0]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(`${t.file} line ${t.line}: environment placeholder ${m[0]} is kept as text; its value in the CoreDNS pod is unknown here.`);
    }
  }
  return out;
}

/**
 * Parses a Corefile into server blocks, expanding snippets and `import`s of extra files
 * (matched by file name, e.g. `import /etc/coredns/custom/*.server` against `foo.server`).
 * Throws on unbalanced braces or an unclosed quote (CoreDNS would refuse such a file too).
 */
export function parseCorefile(text: string, extraFiles?: Record<string, string>): ParsedCorefile {
  const warnings: string[] = [];
  const all = tokenizeCorefile(text);
  if (all.length > MAX_COREFILE_TOKENS) {
    throw new Error(`The Corefile has ${all.length} tokens, more than the ${MAX_COREFILE_TOKENS} a CoreDNS config plausibly holds; check that the right ConfigMap was read.`);
  }
  const { rest, snippets } = extractSnippets(all);
  const tokens = expandImports(rest, { snippets, extraFiles, warnings, total: { count: 0 } }, 0);
  warnings.push(...placeholderWarnings(tokens));
  const serverBlocks: CorefileServerBlock[] = [];
  // Index of the last "{": "is there a { after i" in O(1); a slice-and-scan per key line was
  // quadratic (a hang on a long file of bare lines ending in one block).
  let lastOpen = -1;
  tokens.forEach((t, k) => { if (isOpen(t)) lastOpen = k; });
  let i = 0;
  while (i < tokens.length) {
    const first = tokens[i]!;
    const keys: string[] = [];
    while (i < tokens.length && !isOpen(tokens[i])) {
      if (isClose(tokens[i])) throw new Error(`${tokens[i]!.file} line ${tokens[i]!.line}: "}" closes nothing; remove it.`);
      // Caddy allows `a, b {`: commas only separate keys.
      for (const k of tokens[i]!.text.split(',')) if (k !== '') keys.push(k);
      i++;
      // Caddy's single-block form: keys on the first line, then directives without braces.
      if (serverBlocks.length === 0 && i < tokens.length && tokens[i]!.nl && i > lastOpen) {
        const body = parseBlock(tokens, i, true);
        serverBlocks.push({ keys, directives: body.directives, line: first.line, file: first.file });
        return { serverBlocks, warnings };
      }
    }
    if (i >= tokens.length) throw new Error(`${first.file} line ${first.line}: server block "${keys.join(' ')}" has no "{"; add one after its keys.`);
    const body = parseBlock(tokens, i + 1, false);
    serverBlocks.push({ keys, directives: body.directives, line: first.line, file: first.file });
    i = body.next;
  }
  return { serverBlocks, warnings };
}
