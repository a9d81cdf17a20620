import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from './config.ts';

describe('configuration of the originals store', () => {
  const s3 = {
    S3_ENDPOINT: 'http://minio:9000',
    S3_BUCKET: 'photos',
    S3_ACCESS_KEY_ID: 'key',
    S3_SECRET_ACCESS_KEY: 'secret',
  };

  it('keeps originals under the data dir when no S3 variable is set', () => {
    assert.equal(loadConfig({}).s3, undefined);
  });

  it('uses the bucket when endpoint, bucket and keys are set, in us-east-1 unless told', () => {
    assert.deepEqual(loadConfig({ ...s3, S3_PREFIX: '/loupe/' }).s3, {
      endpoint: 'http://minio:9000',
      bucket: 'photos',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      prefix: 'loupe/',
    });
    assert.equal(loadConfig({ ...s3, S3_REGION: 'eu-central-1' }).s3?.region, 'eu-central-1');
  });

  it('refuses to start with a bucket but no endpoint or keys, naming each one missing', () => {
    assert.throws(
      () => loadConfig({ S3_BUCKET: 'photos' }),
      (error: Error) =>
        ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].every((name) =>
          error.message.includes(`${name}: required when S3_BUCKET is set`),
        ),
    );
  });

  it('refuses an endpoint and keys without a bucket, rather than quietly using the disk', () => {
    const { S3_BUCKET, ...withoutBucket } = s3;
    assert.throws(() => loadConfig(withoutBucket), /S3_BUCKET: required when/);
  });
});

describe('configuration of the search caches', () => {
  it('keeps 64 MiB of answers and 128 MiB of word lists unless told', () => {
    const config = loadConfig({});
    assert.deepEqual([config.searchCacheBytes, config.searchListCacheBytes], [64 * 1024 * 1024, 128 * 1024 * 1024]);
    assert.equal(loadConfig({ LOUPE_SEARCH_LIST_CACHE_BYTES: '1048576' }).searchListCacheBytes, 1024 * 1024);
  });

  it('gives a shutdown 20 s unless told, and refuses 0, more than 600 s or not a whole number', () => {
    assert.equal(loadConfig({}).shutdownSeconds, 20);
    assert.equal(loadConfig({ LOUPE_SHUTDOWN_SECONDS: '1' }).shutdownSeconds, 1);
    assert.equal(loadConfig({ LOUPE_SHUTDOWN_SECONDS: '600' }).shutdownSeconds, 600);
    for (const value of ['0', '601', '-1', '1.5', 'soon']) {
      assert.throws(() => loadConfig({ LOUPE_SHUTDOWN_SECONDS: value }), /LOUPE_SHUTDOWN_SECONDS/, value);
    }
  });

  it('refuses a word list budget under 1 MiB, or not a whole number', () => {
    for (const value of ['1048575', '0', '-1', '1.5', 'lots']) {
      assert.throws(() => loadConfig({ LOUPE_SEARCH_LIST_CACHE_BYTES: value }), /LOUPE_SEARCH_LIST_CACHE_BYTES/, value);
    }
  });
});

describe('configuration of the public URL', () => {
  it('defaults to the address the server listens on, a wildcard one as localhost', () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'http://127.0.0.1:8080'],
      [{ PORT: '8411' }, 'http://127.0.0.1:8411'],
      [{ HOST: '0.0.0.0', PORT: '8411' }, 'http://localhost:8411'],
      [{ HOST: '::', PORT: '9000' }, 'http://localhost:9000'],
      [{ HOST: '::1', PORT: '9000' }, 'http://[::1]:9000'],
      [{ HOST: 'loupe.internal' }, 'http://loupe.internal:8080'],
    ];
    for (const [env, url] of cases) assert.equal(loadConfig(env).publicUrl, url, JSON.stringify(env));
  });

  it('is LOUPE_PUBLIC_URL when set, without a trailing slash, whatever PORT is', () => {
    assert.equal(loadConfig({ PORT: '8411', LOUPE_PUBLIC_URL: 'https://images.example.com/' }).publicUrl, 'https://images.example.com');
  });

  it('refuses a LOUPE_PUBLIC_URL that is not a URL', () => {
    assert.throws(() => loadConfig({ LOUPE_PUBLIC_URL: 'images.example.com' }), /LOUPE_PUBLIC_URL/);
  });
});

describe('configuration of the first start', () => {
  it('takes the default plan as given (the plan table checks it) and the key file as an absolute path', () => {
    const config = loadConfig({ LOUPE_DEFAULT_PLAN: 'pro', LOUPE_BOOTSTRAP_KEY_FILE: 'secrets/key' });
    assert.equal(config.defaultPlan, 'pro');
    assert.ok(config.bootstrapKeyFile?.startsWith('/') && config.bootstrapKeyFile.endsWith('/secrets/key'));
    assert.deepEqual([loadConfig({}).defaultPlan, loadConfig({}).bootstrapKeyFile], [undefined, undefined]);
  });
});
