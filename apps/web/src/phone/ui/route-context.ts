import { createContext, useContext } from 'react';
import type { PhoneRoute } from '../route-table';

/** The phone route being shown, with the path of its tab's own page (where "back" goes without history). */
export type ShownRoute = PhoneRoute & { tabPath: string | null };

export const PhoneRouteContext = createContext<ShownRoute | null>(null);

export const usePhoneRoute = (): ShownRoute | null => useContext(PhoneRouteContext);
