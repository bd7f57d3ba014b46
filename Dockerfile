# One build for the whole stack; docker-compose.yml picks a target:
#   api  - the NestJS API (and, with `node apps/api/dist/worker.js`, the job worker)
#   web  - nginx (as the unprivileged user nginx) serving the built web app and proxying /api, /socket.io, /uploads and
#          /admin/queues to the API
# Images: Node 24 LTS (the root package.json's engines, >=20.19, also lets development machines and CI stay on Node 20;
# typeorm needs >=24.11 on 24, which the 24 tag is past) and nginx's stable branch (1.30). The native modules
# (@node-rs/argon2, msgpackr-extract, @swc/core for the build) are N-API prebuilds: nothing is compiled here.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY packages packages
COPY apps apps
RUN npx turbo run build \
 && npm prune --omit=dev --workspace @wantuo/api --workspace @wantuo/shared --include-workspace-root=false

FROM node:24-bookworm-slim AS api
ENV NODE_ENV=production PORT=8080 DATA_DIR=/data
WORKDIR /app
# pg_dump and pg_restore for the backup service (npm run backup / restore, apps/api/src/ops/backup.ts): Debian's client
# (15 on bookworm) dumps a server of its own major version or older (docker-compose.yml runs postgres:15)
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages/shared/package.json packages/shared/package.json
COPY --from=build /app/packages/shared/dist packages/shared/dist
COPY --from=build /app/apps/api/package.json apps/api/package.json
COPY --from=build /app/apps/api/dist apps/api/dist
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/health/live').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "apps/api/dist/main.js"]

# nginx as the image's unprivileged user nginx (uid 101), not root: nginx.conf has no `user` directive and keeps its pid
# and temporary files under /tmp; default.conf listens on 8080 (above 1024) and answers /healthz itself
FROM nginx:1.30-alpine AS web
COPY apps/web/nginx/nginx.conf /etc/nginx/nginx.conf
COPY apps/web/nginx/default.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/apps/web/dist /usr/share/nginx/html
USER nginx
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD wget -q -O /dev/null http://127.0.0.1:8080/healthz || exit 1
