/**
 * `$ref` closure (SPEC section 5): every `$ref` and `$dynamicRef` must resolve inside the
 * descriptor's own schema, to a JSON-pointer fragment of a resource of the document, to a
 * plain-name anchor, or to a sub-schema `$id` declared in the same document. Recursion is fine:
 * only the target's existence is checked, references are never followed. A reference whose
 * resolved URI leaves the document (another scheme, a host: `https:`, `file:`, an undeclared
 * `urn:`) is REMOTE_REF; a reference that stays local but points nowhere is UNRESOLVED_REF.
 * Protocol 2026-07-28 (`basic/index.mdx`) states the rule behind this: implementations "MUST NOT
 * automatically dereference `$ref` values that resolve to a network URI".
 */
import { LOCAL_BASE, resolveUri, type SchemaIndex } from './schema-index.ts';

/** Why a reference fails the closure. */
export type RefProblem = 'REMOTE_REF' | 'UNRESOLVED_REF';

/** The problems of every reference of an indexed schema (empty when the closure holds). */
export function refProblems(index: SchemaIndex): Set<RefProblem> {
  const problems = new Set<RefProblem>();
  for (const { ref, base } of index.references) {
    const problem = refProblem(ref, base, index);
    if (problem !== null) problems.add(problem);
  }
  return problems;
}

/** The problem of one reference, or null when it resolves inside the document. */
export function refProblem(ref: string, base: string, index: SchemaIndex): RefProblem | null {
  const target = resolveUri(ref, base);
  if (target === null) return 'UNRESOLVED_REF';
  const resource = index.resources.get(target.document);
  if (resource === undefined) return target.foreign ? 'REMOTE_REF' : 'UNRESOLVED_REF';
  if (target.fragment === '') return null;
  if (target.fragment.startsWith('/')) return pointerExists(resource, target.fragment) ? null : 'UNRESOLVED_REF';
  return index.anchors.has(`${target.document}#${target.fragment}`) ? null : 'UNRESOLVED_REF';
}

/**
 * Classifies a reference ajv could not resolve (its `MissingRefError.missingRef`, already
 * resolved against ajv's base). A belt-and-braces path: ajv registers `$id`s slightly
 * differently (it does not walk `prefixItems`), so it may miss a target the index found.
 */
export function missingRefProblem(missingRef: string, index: SchemaIndex): RefProblem {
  const target = resolveUri(missingRef, LOCAL_BASE);
  if (target === null || index.resources.has(target.document)) return 'UNRESOLVED_REF';
  return target.foreign ? 'REMOTE_REF' : 'UNRESOLVED_REF';
}

/** RFC 6901: `~1` is `/`, `~0` is `~`; only own properties count (no `#/constructor`). */
function pointerExists(resource: unknown, pointer: string): boolean {
  let node = resource;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    if (Array.isArray(node) && !/^(0|[1-9][0-9]*)$/.test(key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}
