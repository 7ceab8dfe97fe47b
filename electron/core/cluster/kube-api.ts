/**
 * The Kubernetes API GETs discovery and status make, each as @kubernetes/client-node 1.4's
 * generated CoreV1Api/VersionApi makes it (dist/gen/apis/CoreV1Api.js, VersionApi.js: the same
 * path, `Accept` header and labelSelector query; the kubeconfig's auth applied by
 * KubeConfig.applySecurityAuthentication — exec plugins, tokens, client certificates, CA,
 * proxies; sent by the given HttpLibrary) and answered as its response processors answer:
 * 401 → ApiException "Unauthorized", another code outside 2xx → ApiException with the body,
 * 2xx → the body parsed by its media type (ObjectSerializer.parse: JSON-like → JSON.parse, which
 * throws SyntaxError on a page that is not JSON; text/* → the text; none or another → Error).
 * The answer is the parsed JSON itself, not ObjectSerializer's model instances: the fields read
 * here are named as on the wire (clusterIP, podCIDRs, data…), and loading the ~700 model
 * classes was most of the client's load and of the garbage a `start` then collected.
 */
import type { V1ConfigMap, V1NodeList, V1PodList, V1Service, V1ServiceList, VersionInfo } from '@kubernetes/client-node';
import { ApiException, HttpMethod, ServerConfiguration, type HttpLibrary, type RequestContext } from './client-node-parts';

/** The CoreV1Api reads used (client-node's parameter objects, same names). */
export interface CoreReads {
  readNamespacedService(p: { namespace: string; name: string }): Promise<V1Service>;
  listNamespacedService(p: { namespace: string; labelSelector?: string }): Promise<V1ServiceList>;
  readNamespacedConfigMap(p: { namespace: string; name: string }): Promise<V1ConfigMap>;
  listNamespacedPod(p: { namespace: string; labelSelector?: string }): Promise<V1PodList>;
  listNode(): Promise<V1NodeList>;
}

/** VersionApi.getCode: GET /version/. */
export interface VersionReads {
  getCode(): Promise<VersionInfo>;
}

/** What applies a kubeconfig's credentials to a request (client-node's KubeConfig). */
export interface RequestAuth {
  applySecurityAuthentication(context: RequestContext): Promise<void>;
}

/**
 * ObjectSerializer.parse of client-node 1.4 (dist/gen/models/ObjectSerializer.js) on a
 * Content-Type header: its media type (before `;`, trimmed, lower case) `text/*` gives the text,
 * `application/…json…` (a `+`-separated subtype token `json`) gives JSON.parse of it; none or
 * another media type throws, as there.
 */
export function parseBody(text: string, contentType: string | undefined): unknown {
  const mediaType = contentType === undefined ? undefined : (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (mediaType === undefined) throw new Error('Cannot parse content. No Content-Type defined.');
  const [type = '', subtype = ''] = mediaType.split('/');
  if (type === 'text') return text;
  if (type === 'application' && subtype.split('+').includes('json')) return JSON.parse(text);
  throw new Error(`The mediaType ${mediaType} is not supported by ObjectSerializer.parse.`);
}

/** The reads against the API server at `server` (the kubeconfig's URL, a path prefix kept), with `auth`, through `http`. */
export function kubeReads(server: string, auth: RequestAuth, http: HttpLibrary): { core: CoreReads; version: VersionReads } {
  const base = new ServerConfiguration(server, {});
  const get = async <T>(path: string, labelSelector?: string): Promise<T> => {
    const request = base.makeRequestContext(path, HttpMethod.GET);
    request.setHeaderParam('Accept', 'application/json, */*;q=0.8');
    if (labelSelector !== undefined) request.setQueryParam('labelSelector', labelSelector);
    await auth.applySecurityAuthentication(request);
    const response = await http.send(request).toPromise();
    const code = response.httpStatusCode;
    if (code === 401) throw new ApiException(code, 'Unauthorized', undefined, response.headers);
    if (code < 200 || code > 299) throw new ApiException(code, 'Unknown API Status Code!', await response.getBodyAsAny(), response.headers);
    return parseBody(await response.body.text(), response.headers['content-type']) as T;
  };
  const ns = (namespace: string) => `/api/v1/namespaces/${encodeURIComponent(namespace)}`;
  return {
    core: {
      readNamespacedService: ({ namespace, name }) => get(`${ns(namespace)}/services/${encodeURIComponent(name)}`),
      listNamespacedService: ({ namespace, labelSelector }) => get(`${ns(namespace)}/services`, labelSelector),
      readNamespacedConfigMap: ({ namespace, name }) => get(`${ns(namespace)}/configmaps/${encodeURIComponent(name)}`),
      listNamespacedPod: ({ namespace, labelSelector }) => get(`${ns(namespace)}/pods`, labelSelector),
      listNode: () => get('/api/v1/nodes'),
    },
    version: { getCode: () => get('/version/') },
  };
}
