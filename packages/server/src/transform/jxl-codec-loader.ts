import { readFile } from 'node:fs/promises';

/**
 * The Emscripten factory that each of @jsquash/jxl's `codec/*.js` files exports by default,
 * reduced to the options used here. The package's own typings lean on an `EmscriptenWasm`
 * global that none of them references, so TypeScript reads those factories as `any`;
 * typing them here keeps a wrong call a compile error.
 */
export type JxlCodecFactory<Codec> = (options: {
  noInitialRun: boolean;
  instantiateWasm: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) => WebAssembly.Exports;
}) => Promise<Codec>;

/**
 * Starts one of @jsquash/jxl's codecs from its `.wasm` file on disk.
 *
 * The glue is built for browsers and workers only: left alone it fetches the `.wasm` from
 * beside its `import.meta.url`, and Node's `fetch` does not read `file:` URLs. Emscripten's
 * `instantiateWasm` hook lets us hand it an instance of a module compiled from the bytes.
 */
export async function loadJxlCodec<Codec>(createCodec: JxlCodecFactory<Codec>, wasmFile: URL): Promise<Codec> {
  const compiled = await WebAssembly.compile(await readFile(wasmFile));
  return createCodec({
    noInitialRun: true,
    // Synchronous, so that an instantiation error reaches the glue's try/catch and rejects
    // the codec's promise instead of leaving it pending.
    instantiateWasm(imports, receive) {
      const instance = new WebAssembly.Instance(compiled, imports);
      receive(instance);
      return instance.exports;
    },
  });
}
