// The answer schemas of module `site` (what `data` carries, as JSON), declared in api/site.ts.
export {};
