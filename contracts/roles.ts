// Team mode's roles in a project, lowest first (the Prisma enum Role; server/db/contracts.test.ts
// keeps them equal). The server decides access; the studio reads the same order to disable what a
// role may not do, with the reason, instead of letting the click fail.
export const ROLES = ['viewer', 'researcher', 'admin'] as const;
export type RoleName = (typeof ROLES)[number];

/** True when `role` is at least `need` (no role: nothing). */
export function roleAtLeast(role: RoleName | null | undefined, need: RoleName): boolean {
  return role != null && ROLES.indexOf(role) >= ROLES.indexOf(need);
}
