import { z } from "zod";

// In the browser zod would probe `new Function("")` to see whether it may compile fast parsers;
// our CSP forbids eval, so the probe shows up as a violation. Browsers parse small forms only,
// so they use the interpreter. The server keeps the compiled fast path for large trees.
if (typeof window !== "undefined") z.config({ jitless: true });
