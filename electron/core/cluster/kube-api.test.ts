import { describe, expect, it } from 'vitest';
import { CoreV1Api, createConfiguration, ServerConfiguration, VersionApi } from '@kubernetes/client-node';
import { ApiException, type HttpLibrary, type RequestContext } from './client-node-parts';
import { kubeReads, parseBody } from './kube-api';
import { ResponseContext } from '@kubernetes/client-node/dist/gen/http/http.js';
import { from } from '@kubernetes/client-node/dist/gen/rxjsStub.js';

/** An HttpLibrary that records each request and answers `status` with `body` as `contentType`. */
function recording(status = 200, body = '{"kind":"X","items":[]}', contentType: string | undefined = 'application/json'): { http: HttpLibrary; seen: RequestContext[] } {
  const seen: RequestContext[] = [];
  const http: HttpLibrary = {
    send(request) {
      seen.push(request);
      const data = Promise.resolve(Buffer.from(body));
      return from(Promise.resolve(new ResponseContext(status, contentType === undefined ? {} : { 'content-type': contentType }, { text: async () => (await data).toString(), binary: () => data })));
    },
  };
  return { http, seen };
}

/** Bearer-token auth as KubeConfig applies a token (one header). */
const auth = { getName: () => 'default', applySecurityAuthentication: async (c: RequestContext) => c.setHeaderParam('Authorization', 'Bearer t0k') };
const wire = (r: RequestContext) => ({ url: r.getUrl(), method: r.getHttpMethod(), headers: r.getHeaders() });

describe('kubeReads', () => {
  it('makes each GET as client-node\'s generated CoreV1Api/VersionApi does: URL (a path prefix kept), query, Accept, auth', async () => {
    const server = 'https://k8s.example:6443/prefix';
    const ours = recording();
    const theirs = recording();
    const r = kubeReads(server, auth, ours.http);
    const config = createConfiguration({ baseServer: new ServerConfiguration(server, {}), authMethods: { default: auth }, httpApi: theirs.http });
    const core = new CoreV1Api(config);
    await r.core.readNamespacedService({ namespace: 'kube-system', name: 'kube-dns' });
    await core.readNamespacedService({ namespace: 'kube-system', name: 'kube-dns' });
    await r.core.listNamespacedService({ namespace: 'kube-system', labelSelector: 'k8s-app=kube-dns' });
    await core.listNamespacedService({ namespace: 'kube-system', labelSelector: 'k8s-app=kube-dns' });
    await r.core.readNamespacedConfigMap({ namespace: 'a b', name: 'c/d' });
    await core.readNamespacedConfigMap({ namespace: 'a b', name: 'c/d' });
    await r.core.listNamespacedPod({ namespace: 'kube-system', labelSelector: 'a=b,c in (d)' });
    await core.listNamespacedPod({ namespace: 'kube-system', labelSelector: 'a=b,c in (d)' });
    await r.core.listNode();
    await core.listNode();
    await r.version.getCode();
    await new VersionApi(config).getCode();
    expect(ours.seen.map(wire)).toEqual(theirs.seen.map(wire));
    expect(wire(ours.seen[1]!)).toEqual({ url: 'https://k8s.example:6443/prefix/api/v1/namespaces/kube-system/services?labelSelector=k8s-app%3Dkube-dns', method: 'GET', headers: { Accept: 'application/json, */*;q=0.8', Authorization: 'Bearer t0k' } });
  });

  it('answers the parsed JSON; 401 is ApiException "Unauthorized", another non-2xx carries the body, as client-node\'s', async () => {
    const ok = recording(200, '{"spec":{"clusterIP":"172.21.0.10"}}', 'application/json; charset=utf-8');
    expect(await kubeReads('http://x', auth, ok.http).core.readNamespacedService({ namespace: 'n', name: 's' })).toEqual({ spec: { clusterIP: '172.21.0.10' } });
    const unauthorized = await kubeReads('http://x', auth, recording(401, '{"message":"no"}').http).core.listNode().catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(ApiException);
    expect(unauthorized).toMatchObject({ code: 401, body: undefined });
    expect((unauthorized as Error).message).toMatch(/^HTTP-Code: 401\nMessage: Unauthorized/);
    const missing = await kubeReads('http://x', auth, recording(404, '{"message":"configmaps \\"x\\" not found"}').http).core.readNamespacedConfigMap({ namespace: 'n', name: 'x' }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 404, body: '{"message":"configmaps \\"x\\" not found"}' });
    await expect(kubeReads('http://x', auth, recording(200, '<html>', 'application/json').http).core.listNode()).rejects.toBeInstanceOf(SyntaxError);
  });
});

describe('parseBody (client-node 1.4 ObjectSerializer.parse)', () => {
  it('JSON for application/json and +json subtypes, the text for text/*, an error without or with another media type', () => {
    expect(parseBody('{"a":1}', 'Application/JSON; charset=utf-8')).toEqual({ a: 1 });
    expect(parseBody('{"a":1}', 'application/merge-patch+json')).toEqual({ a: 1 });
    expect(parseBody('hi', 'text/plain')).toBe('hi');
    expect(() => parseBody('{}', undefined)).toThrow('Cannot parse content. No Content-Type defined.');
    expect(() => parseBody('{}', 'application/yaml')).toThrow('The mediaType application/yaml is not supported by ObjectSerializer.parse.');
  });
});
