export function v8FlagsFor(command: string | undefined): string | undefined;
