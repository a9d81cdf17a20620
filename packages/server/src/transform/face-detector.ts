import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Config, Human, Tensor3D } from '@vladmandic/human';

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/** Raw RGB pixels as sharp's `.raw()` gives them; the caller downsizes to about 512 px first. */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3;
}

/** BlazeFace scores the test faces 0.74–0.87 and coffee.png's false boxes below 0.3 (DESIGN.md §9). */
const MIN_SCORE = 0.5;

// Human's `exports` map has no `./` prefixes, so Node reads its keys as conditions and the
// `dist/human.node-wasm` subpath never resolves. The `node` condition does resolve (to the
// tfjs-node build, which we do not install), and the wasm build sits beside it.
const humanEntry = import.meta.resolve('@vladmandic/human');
const humanWasmBuild = new URL('human.node-wasm.js', humanEntry).href;
const modelFolder = new URL('../models/', humanEntry).href;
// Human's default wasmPath is a CDN; the same binaries sit beside the backend's main file.
const wasmFolder = fileURLToPath(new URL('./', import.meta.resolve('@tensorflow/tfjs-backend-wasm')));

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

const config: DeepPartial<Config> = {
  backend: 'wasm',
  wasmPath: wasmFolder,
  modelBasePath: modelFolder,
  warmup: 'none',
  // Human is built for video and reuses the last result for a "similar" frame; every call here is a new image.
  cacheSensitivity: 0,
  filter: { enabled: false },
  // Only BlazeFace: the other models would multiply the time per image.
  face: {
    detector: { rotation: false, maxDetected: 10, minConfidence: MIN_SCORE, skipFrames: 0, skipTime: 0 },
    mesh: { enabled: false },
    iris: { enabled: false },
    emotion: { enabled: false },
    description: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
};

/** The few tfjs calls made here (Human types its `tf` as `any`). */
interface Tfjs {
  tensor3d(values: Int32Array, shape: [number, number, number], dtype: 'int32'): Tensor3D;
  io: {
    registerLoadRouter(router: (url: string | string[]) => { load(): Promise<unknown> } | null): void;
    getModelArtifactsForJSON(
      json: ModelJson,
      loadWeights: (manifest: WeightsManifest) => Promise<[unknown[], ArrayBuffer]>,
    ): Promise<unknown>;
  };
}
type WeightsManifest = { paths: string[]; weights: unknown[] }[];
interface ModelJson {
  weightsManifest: WeightsManifest;
}

let fileRouterRegistered = false;

/**
 * tfjs picks a model loader from its IO router registry; without tfjs-node the only one is the
 * HTTP loader, and Node's `fetch` refuses `file://` URLs. So `file://` gets a router that reads
 * from disk, as tfjs-node's own does. The registry is process-wide and tfjs refuses a URL two
 * routers claim, hence once per process.
 */
function registerFileRouter(tf: Tfjs): void {
  if (fileRouterRegistered) return;
  fileRouterRegistered = true;
  tf.io.registerLoadRouter((url) => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    return { load: () => loadModelFromDisk(tf, url) };
  });
}

async function loadModelFromDisk(tf: Tfjs, modelUrl: string): Promise<unknown> {
  const json = JSON.parse(await readFile(new URL(modelUrl), 'utf8')) as ModelJson;
  return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
    const shards = await Promise.all(manifest.flatMap((group) => group.paths).map((path) => readFile(new URL(path, modelUrl))));
    const weights = Buffer.concat(shards);
    const buffer = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength);
    return [manifest.flatMap((group) => group.weights), buffer];
  });
}

/** Finds faces with Human's BlazeFace on the tfjs wasm backend, offline. */
export class FaceDetector {
  #human: Promise<Human> | undefined;
  // Human keeps per-call state (the current input, cached boxes) on the instance and in its
  // module, so detections run one at a time; the wasm backend uses one thread anyway.
  #queue: Promise<unknown> = Promise.resolve();

  /** Loads lazily on first use, once; concurrent first calls share one load. */
  detect(image: RgbImage): Promise<FaceBox[]> {
    const result = this.#queue.then(() => this.#detect(image));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Frees the model weights. Human keeps its models in module variables shared by every
   * instance, so `reset()` makes the next load in this process read them afresh.
   */
  async close(): Promise<void> {
    await this.#queue;
    const human = await this.#human?.catch(() => undefined);
    this.#human = undefined;
    if (!human) return;
    for (const model of Object.values(human.models.models)) model?.dispose();
    human.models.reset();
    human.reset();
  }

  #load(): Promise<Human> {
    this.#human ??= (async () => {
      const { default: human } = (await import(humanWasmBuild)) as { default: { Human: typeof Human } };
      const instance = new human.Human(config as Partial<Config>);
      registerFileRouter(instance.tf as Tfjs);
      await instance.load();
      return instance;
    })().catch((error: unknown) => {
      this.#human = undefined; // a later call tries again rather than failing for good
      throw error;
    });
    return this.#human;
  }

  async #detect(image: RgbImage): Promise<FaceBox[]> {
    const human = await this.#load();
    const input = (human.tf as Tfjs).tensor3d(Int32Array.from(image.data), [image.height, image.width, 3], 'int32');
    try {
      // Human drops boxes under `minConfidence`; with the mesh off, `boxScore` is BlazeFace's own score.
      const { face } = await human.detect(input);
      return face
        .map(({ box: [x, y, width, height], boxScore }) => ({ x, y, width, height, score: boxScore }))
        .sort((a, b) => b.score - a.score);
    } finally {
      input.dispose();
    }
  }
}

/** The best face or null: the shape the transform pipeline takes as its `findFace` option. */
export function findFace(
  detector: FaceDetector,
): (image: RgbImage) => Promise<{ x: number; y: number; width: number; height: number } | null> {
  return async (image) => {
    const [best] = await detector.detect(image);
    return best ? { x: best.x, y: best.y, width: best.width, height: best.height } : null;
  };
}
