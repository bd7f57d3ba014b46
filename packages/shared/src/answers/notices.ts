// The answer schemas of module `notices` (what `data` carries, as JSON), declared in api/notices.ts.
export {};
