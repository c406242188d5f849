/**
 * Reads every TypeScript file under a folder with the compiler's parser and builds the graph of
 * their imports: static imports, `import type`, `export … from`, dynamic `import()`, type-level
 * `import('…')`, `import x = require()` and `require()` calls. Relative specifiers resolve
 * as NodeNext does for our sources (`./x.js` → `x.ts`); package specifiers are kept as written.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];
/** What a runtime extension in a specifier stands for in the sources. */
const SOURCE_FOR_RUNTIME: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/** One import of one file, as written and, for a relative one, as resolved. */
export interface ImportEdge {
  specifier: string;
  /** True when only types cross it (`import type`, `export type`, all-type specifiers, `import('…')` in a type). */
  typeOnly: boolean;
  /** The absolute path of the file a relative specifier names; undefined for a package or when not found. */
  resolved?: string;
  /** True for a relative specifier that names no existing file. */
  unresolved: boolean;
  /** True for a dynamic `import()`: the module is loaded when the call runs, not with the importer. */
  dynamic?: boolean;
}

/** A string or template literal in a file (template substitutions replaced by `${…}`). */
export interface StringLiteralText {
  text: string;
  line: number;
}

/** What the checks need to know of one source file. */
export interface SourceFileFacts {
  /** Absolute path. */
  file: string;
  imports: ImportEdge[];
  strings: StringLiteralText[];
}

/** All source files under a root folder and their imports. */
export interface ImportGraph {
  root: string;
  files: Map<string, SourceFileFacts>;
}

function isSourceFile(file: string): boolean {
  return SOURCE_EXTENSIONS.some((extension) => file.endsWith(extension));
}

function listSourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...listSourceFiles(full));
    else if (entry.isFile() && isSourceFile(entry.name)) files.push(full);
  }
  return files.sort();
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier names, or undefined when none exists. */
function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(fromFile), specifier);
  const extension = path.extname(target);
  const candidates: string[] = [];
  const sourceExtensions = SOURCE_FOR_RUNTIME[extension];
  if (sourceExtensions !== undefined) {
    const stem = target.slice(0, -extension.length);
    candidates.push(...sourceExtensions.map((source) => stem + source));
  }
  candidates.push(target);
  candidates.push(...SOURCE_EXTENSIONS.map((source) => target + source));
  candidates.push(...SOURCE_EXTENSIONS.map((source) => path.join(target, `index${source}`)));
  return candidates.find(isFile);
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (clause === undefined) return false; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  if (bindings === undefined || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  if (clause === undefined || !ts.isNamedExports(clause)) return false;
  return clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
}

function templateText(node: ts.TemplateExpression): string {
  return node.head.text + node.templateSpans.map((span) => `\${…}${span.literal.text}`).join('');
}

/** Parses one file and collects its import specifiers and string literals. */
export function readSourceFile(file: string): SourceFileFacts {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean; dynamic?: boolean }[] = [];
  const strings: StringLiteralText[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnlyImport(node) });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnlyExport(node) });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (ts.isCallExpression(node)) {
      const [argument] = node.arguments;
      const isImportCall = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if ((isImportCall || isRequire) && argument !== undefined && ts.isStringLiteralLike(argument)) {
        found.push({ specifier: argument.text, typeOnly: false, ...(isImportCall ? { dynamic: true } : {}) });
      }
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      strings.push({ text: node.text, line: lineOf(node) });
    } else if (ts.isTemplateExpression(node)) {
      strings.push({ text: templateText(node), line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  const imports = found.map(({ specifier, typeOnly, dynamic }): ImportEdge => {
    const loaded = dynamic ? { dynamic } : {};
    if (!specifier.startsWith('.')) return { specifier, typeOnly, unresolved: false, ...loaded };
    const resolved = resolveRelative(file, specifier);
    return resolved === undefined
      ? { specifier, typeOnly, unresolved: true, ...loaded }
      : { specifier, typeOnly, resolved, unresolved: false, ...loaded };
  });
  return { file, imports, strings };
}

/** Reads every source file under `root` (recursively). */
export function buildImportGraph(root: string): ImportGraph {
  const absoluteRoot = path.resolve(root);
  const files = new Map<string, SourceFileFacts>();
  for (const file of listSourceFiles(absoluteRoot)) files.set(file, readSourceFile(file));
  return { root: absoluteRoot, files };
}

/** The source files inside the graph that a file imports, each with whether only types cross. */
export function internalImports(graph: ImportGraph, file: string): { target: string; typeOnly: boolean }[] {
  const facts = graph.files.get(file);
  if (facts === undefined) return [];
  const targets = new Map<string, boolean>();
  for (const edge of facts.imports) {
    if (edge.resolved === undefined || !graph.files.has(edge.resolved)) continue;
    // A value import anywhere makes the edge a value edge.
    targets.set(edge.resolved, (targets.get(edge.resolved) ?? true) && edge.typeOnly);
  }
  return [...targets].map(([target, typeOnly]) => ({ target, typeOnly }));
}

/**
 * The strongly connected components of the graph with more than one file, or one file that
 * imports itself: each holds at least one import cycle (Tarjan's algorithm, iterative so deep
 * chains do not overflow the stack).
 */
export function cyclicComponents(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let nextIndex = 0;

  for (const start of graph.files.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; targets: string[]; next: number }[] = [];
    const enter = (file: string) => {
      index.set(file, nextIndex);
      lowLink.set(file, nextIndex);
      nextIndex++;
      stack.push(file);
      onStack.add(file);
      work.push({ file, targets: internalImports(graph, file).map((edge) => edge.target), next: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++]!;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) {
          lowLink.set(frame.file, Math.min(lowLink.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        lowLink.set(parent.file, Math.min(lowLink.get(parent.file)!, lowLink.get(frame.file)!));
      }
      if (lowLink.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      const selfImport = internalImports(graph, frame.file).some((edge) => edge.target === frame.file);
      if (component.length > 1 || selfImport) components.push(component.sort());
    }
  }
  return components;
}

/**
 * The shortest cycle through `start` that stays inside `component`, as the files in import
 * order ending with `start` again, each step marked when only types cross it.
 */
export function shortestCycle(
  graph: ImportGraph,
  component: readonly string[],
  start: string,
): { file: string; typeOnly: boolean }[] {
  const members = new Set(component);
  const previous = new Map<string, { from: string; typeOnly: boolean }>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const file = queue[head]!;
    for (const edge of internalImports(graph, file)) {
      if (!members.has(edge.target)) continue;
      if (edge.target === start) {
        const path: { file: string; typeOnly: boolean }[] = [{ file: start, typeOnly: edge.typeOnly }];
        let step = file;
        while (step !== start) {
          const link = previous.get(step)!;
          path.unshift({ file: step, typeOnly: link.typeOnly });
          step = link.from;
        }
        path.unshift({ file: start, typeOnly: false });
        return path;
      }
      if (previous.has(edge.target)) continue;
      previous.set(edge.target, { from: file, typeOnly: edge.typeOnly });
      queue.push(edge.target);
    }
  }
  return [];
}
