import type { UserType } from '@vetcall/shared/roles';

/** The access types each session hook admits (none named: any session), for the OpenAPI document. */
const admittedTypes = new WeakMap<object, readonly UserType[]>();

/** Records that `hook` admits only a session, and only of `types` when any are named. */
export function markSessionHook<Hook extends object>(hook: Hook, types: readonly UserType[]): Hook {
  admittedTypes.set(hook, types);
  return hook;
}

/** The access types a route's onRequest hooks admit: undefined when none of them asks for a session. */
export function admittedTypesOf(hooks: unknown): readonly UserType[] | undefined {
  for (const hook of [hooks].flat()) {
    const types = typeof hook === 'function' ? admittedTypes.get(hook) : undefined;
    if (types) return types;
  }
  return undefined;
}
