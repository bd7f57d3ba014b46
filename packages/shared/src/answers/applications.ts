// The answer schemas of module `applications` (what `data` carries, as JSON), declared in api/applications.ts.
export {};
