import { Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { accessOf, findAction, type Access, type ActionDef, type Declaration, type Who } from '@wantuo/shared';
import type { ZodType } from 'zod';
import { declarationOfHandler } from '../http/action.decorator';
import { INPUT_SCHEMA } from '../http/input.decorator';
import { ACCESS } from './access.decorator';

export interface RouteInfo {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  access: Access;
  action: ActionDef | null;
  /** the declaration (packages/shared/src/api) of a catalogue action */
  declaration: Declaration | null;
  input: ZodType | null;
  handler: (...args: unknown[]) => unknown;
}

const METHODS: Partial<Record<RequestMethod, RouteInfo['method']>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.DELETE]: 'DELETE',
  [RequestMethod.PATCH]: 'PATCH',
};

function joinPath(...parts: string[]): string {
  return `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
}

/**
 * Every route the app serves, with its access rule: from the action catalogue for /api/index and
 * /api/sms actions, from @Access for the few others. A route with neither stops the app at start.
 */
@Injectable()
export class RouteCatalogue {
  private routes: RouteInfo[] | null = null;
  private byHandler = new Map<unknown, RouteInfo>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  all(): RouteInfo[] {
    if (this.routes) return this.routes;
    const routes: RouteInfo[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || !wrapper.metatype) continue;
      const base: string | string[] = Reflect.getMetadata(PATH_METADATA, wrapper.metatype) ?? '';
      const proto = Object.getPrototypeOf(instance);
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const handler = proto[name];
        const sub: string | string[] | undefined = Reflect.getMetadata(PATH_METADATA, handler);
        const m: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, handler);
        if (sub === undefined || m === undefined) continue;
        const method = METHODS[m];
        if (!method) throw new Error(`${wrapper.name}.${name}: unsupported method`);
        const path = joinPath([base].flat()[0], [sub].flat()[0]);
        const action = findAction(method, path) ?? null;
        const declared = this.reflector.get<Who[] | undefined>(ACCESS, handler);
        if (action && declared) throw new Error(`${method} ${path} is a catalogue action: its access comes from the catalogue, drop @Access`);
        const who = action?.who ?? declared;
        if (!who) throw new Error(`${method} ${path} (${wrapper.name}.${name}) is neither in the action catalogue nor declares @Access`);
        const declaration = declarationOfHandler(handler) ?? null;
        if (action && !declaration) throw new Error(`${method} ${path} (${wrapper.name}.${name}) is a catalogue action: route it with @Action`);
        const input: ZodType | null = declaration ? declaration.input : (Reflect.getMetadata(INPUT_SCHEMA, proto, name) ?? null);
        const info: RouteInfo = { method, path, access: accessOf(who), action, declaration, input, handler };
        routes.push(info);
        this.byHandler.set(handler, info);
      }
    }
    this.routes = routes;
    return routes;
  }

  forHandler(handler: unknown): RouteInfo | undefined {
    if (!this.routes) this.all();
    return this.byHandler.get(handler);
  }
}
