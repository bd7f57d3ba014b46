// The answer schemas of module `auth` (what `data` carries, as JSON), declared in api/auth.ts.
export {};
