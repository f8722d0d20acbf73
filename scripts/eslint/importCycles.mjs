// Lint rule: no set of files imports each other in a circle, type-only imports included
// (architecture.md §2). import-x/no-cycle skips type-only imports and has no option to count
// them, hence this rule. TypeScript's preProcessFile lists a file's imports (type-only ones
// too) without parsing it; relative imports are resolved as the bundlers do.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const CANDIDATES = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file a relative import names, or null (a package, or a file outside the project). */
function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier.replace(/\.js$/, ''));
  for (const ending of CANDIDATES) {
    const file = base + ending;
    if (/\.tsx?$/.test(file) && isFile(file)) return file;
  }
  return null;
}

/** The files `file` imports, with where each import names its file in `text`. */
function importsIn(file, text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => ({ target: resolveImport(file, f.fileName), pos: f.pos, end: f.end }))
    .filter((i) => i.target !== null);
}

/** Each file's resolved imports, read once per lint run (and again when the file changed). */
const onDisk = new Map();
function importsOnDisk(file) {
  const mtime = statSync(file).mtimeMs;
  const known = onDisk.get(file);
  if (known && known.mtime === mtime) return known.imports;
  const imports = importsIn(file, readFileSync(file, 'utf8')).map((i) => i.target);
  onDisk.set(file, { mtime, imports });
  return imports;
}

/** The path from `start` back to `file` through the imports, or null when there is none. */
function pathBack(start, file, dead) {
  const trail = [];
  const onTrail = new Set();
  const walk = (node) => {
    if (node === file) return true;
    if (dead.has(node) || onTrail.has(node)) return false;
    trail.push(node);
    onTrail.add(node);
    for (const next of importsOnDisk(node)) if (walk(next)) return true;
    trail.pop();
    onTrail.delete(node);
    dead.add(node);
    return false;
  };
  return walk(start) ? [...trail, file] : null;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import circles, type-only imports included (architecture.md §2).' },
    schema: [],
    messages: { cycle: 'Import circle: {{circle}}. Layers run down (architecture.md §2): move what both need below both.' },
  },
  create(context) {
    const file = path.resolve(context.filename);
    return {
      Program() {
        const { sourceCode } = context;
        const seen = new Set();
        // Files that cannot lead back to this one; shared by its imports.
        const dead = new Set();
        for (const { target, pos, end } of importsIn(file, sourceCode.text)) {
          if (seen.has(target)) continue;
          seen.add(target);
          const back = pathBack(target, file, dead);
          if (!back) continue;
          // Files passed on the way may lead back through the circle just found.
          dead.clear();
          const names = [file, ...back].map((f) => path.relative(context.cwd, f));
          context.report({ loc: { start: sourceCode.getLocFromIndex(pos), end: sourceCode.getLocFromIndex(end) }, messageId: 'cycle', data: { circle: names.join(' > ') } });
        }
      },
    };
  },
};

export default { rules: { 'no-import-cycle': noImportCycle } };
