import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { exitCodes } from './exit-codes.ts';
import { createProgram } from './program.ts';
import { runLoupe } from './test-loupe-run.ts';

/** Every command that runs something (not a group of subcommands), as its words after `loupe`. */
function leafCommands(command: Command, path: string[] = []): string[][] {
  const children = command.commands.filter((child) => child.name() !== 'help');
  if (children.length === 0) return [path];
  return children.flatMap((child) => leafCommands(child, [...path, child.name()]));
}

const operatorCommands = new Set(['serve', 'worker', 'init', 'admin', 'mcp']);

describe('loupe --help', () => {
  it('lists the commands by purpose, where settings come from, and every exit code', async () => {
    const run = await runLoupe(['--help']);
    assert.equal(run.code, 0);
    for (const heading of ['Run an instance:', 'Images:', 'Audits:', 'Anything else:'])
      assert.ok(run.stdout.includes(`\n${heading}\n`), heading);
    assert.match(run.stdout, /--key +LOUPE_API_KEY/);
    for (const code of Object.values(exitCodes)) assert.match(run.stdout, new RegExp(`^  ${code}  \\S`, 'm'));
  });

  it('answers --help of every top-level command as a process, with its usage', async () => {
    const names = createProgram()
      .commands.map((command) => command.name())
      .filter((name) => name !== 'help');
    const queue = [...names];
    // Two at a time: each is a process of its own.
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        for (let name = queue.shift(); name; name = queue.shift()) {
          const run = await runLoupe([name, '--help']);
          assert.equal(run.code, 0, `${name}: ${run.stderr}`);
          assert.match(run.stdout, new RegExp(`^Usage: loupe ${name}\\b.*\\n\\n\\S`), name);
        }
      }),
    );
  });

  it('describes every command, and lists the connection and --json flags on each user command', () => {
    const program = createProgram();
    const leaves = leafCommands(program);
    assert.ok(leaves.length > 25);
    for (const path of leaves) {
      const command = path.reduce((parent, name) => parent.commands.find((child) => child.name() === name)!, program);
      assert.ok(command.description().length > 10, `${path.join(' ')} has a description`);
      if (operatorCommands.has(path[0]!)) continue;
      const help = command.helpInformation();
      for (const flag of ['--url <url>', '--key <key>', '--workspace <id>', '--config <file>', '--json']) {
        assert.ok(help.includes(flag), `${path.join(' ')} --help lists ${flag}`);
      }
    }
  });

  it('exits 2 for an unknown command, suggesting the nearest', async () => {
    const run = await runLoupe(['projcts', 'list']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown command 'projcts'\n\(Did you mean projects\?\)/);
  });
});
