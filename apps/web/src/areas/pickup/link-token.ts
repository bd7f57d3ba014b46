/** A pick-up person's share-link token as the API makes them (24 random bytes, base64url): 32 characters. */
export const isPickupLinkToken = (token: string): boolean => /^[A-Za-z0-9_-]{32}$/.test(token);
