// The parts of autocannon 9's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  export interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number; average: number; max: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    statusCodeStats?: Record<string, { count: number }>;
  }

  export interface CannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (request: CannonRequest, context: Record<string, unknown>) => CannonRequest;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string | string[]>,
    ) => void;
  }

  export interface CannonClient {
    setRequests(requests: CannonRequest[]): void;
  }

  export interface CannonOptions extends CannonRequest {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    /** Requests per second across all connections (connections are lowered to it). */
    overallRate?: number;
    requests?: CannonRequest[];
    setupClient?: (client: CannonClient) => void;
  }

  export interface Instance {
    stop(): void;
  }

  export default function autocannon(
    options: CannonOptions,
    done: (error: Error | null, result: Result) => void,
  ): Instance;
}
