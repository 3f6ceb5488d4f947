// The spec's shapes live in the contracts module (shared with the studio and the CLI).
export * from '../../contracts/spec.ts';
