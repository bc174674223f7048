/**
 * The disk of F18 refuses every write of a dead boot, to a table of the core's own schema as much
 * as to catsim's (issue 27 item 4: "the fence covers every table and the file"), and the next
 * boot's image holds nothing the dead one tried to write.
 */
import { describe, expect, it } from 'vitest';
import { HostDisk, HostDown } from './host-disk.ts';

/** A disk whose boot 0 keeps its own table `notes (id, text)` with one row, committed while alive. */
function diskWithOwnTable(): { disk: HostDisk; db: ReturnType<HostDisk['connect']> } {
  const disk = new HostDisk();
  const db = disk.connect(0, () => false);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  db.prepare('INSERT INTO notes (id, text) VALUES (?, ?)').run(1, 'written alive');
  disk.arm();
  return { disk, db };
}

const notesOf = (db: ReturnType<HostDisk['connect']>): unknown[] =>
  db.prepare('SELECT id, text FROM notes ORDER BY id').all();

describe('the fence of a dead boot on its disk connection', () => {
  it('refuses every kind of write with HostDown once the boot died: statements, exec, transactions, pragmas, DDL, close', () => {
    const { disk, db } = diskWithOwnTable();
    const prepared = db.prepare('INSERT INTO notes (id, text) VALUES (?, ?)');
    const write = db.transaction(() => prepared.run(3, 'in a transaction'));
    disk.kill();
    const attempts: [string, () => unknown][] = [
      ['statement prepared alive', () => prepared.run(2, 'after death')],
      ['statement prepared dead', () => db.prepare('UPDATE notes SET text = ? WHERE id = 1').run('changed')],
      ['exec', () => db.exec('DELETE FROM notes')],
      ['DDL', () => db.prepare('CREATE TABLE more (x)').run()],
      ['transaction', () => write()],
      ['transaction.immediate', () => write.immediate()],
      ['pragma that sets', () => db.pragma('user_version = 7')],
      ['close', () => db.close()],
    ];
    const outcomes = attempts.map(([what, attempt]) => {
      try {
        attempt();
        return [what, 'accepted'];
      } catch (error) {
        return [what, error instanceof HostDown ? error.message : `other: ${String(error)}`];
      }
    });
    expect(outcomes).toEqual(attempts.map(([what]) => [what, 'host boot 0 is down (F18)']));
    // Reads still answer (what a dead boot reads reaches nobody), and the disk is as boot 0 left it.
    expect(notesOf(db)).toEqual([{ id: 1, text: 'written alive' }]);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    disk.close();
  });

  it("the next boot starts on the image without any of the dead boot's attempts, and writes freely itself", () => {
    const { disk, db } = diskWithOwnTable();
    disk.kill();
    expect(() => db.prepare('INSERT INTO notes (id, text) VALUES (?, ?)').run(2, 'after death')).toThrow(HostDown);
    const next = disk.connect(1, () => false);
    expect(notesOf(next)).toEqual([{ id: 1, text: 'written alive' }]);
    expect(next.prepare('INSERT INTO notes (id, text) VALUES (?, ?)').run(2, 'boot 1').changes).toBe(1);
    expect(notesOf(next)).toEqual([
      { id: 1, text: 'written alive' },
      { id: 2, text: 'boot 1' },
    ]);
    // The dead boot's statements stay fenced after the next boot started.
    expect(() => db.prepare('DELETE FROM notes').run()).toThrow(new HostDown(0));
    disk.close();
  });

  it('arms the trigger fence on the catalog and the capability tables (SPEC section 9) once the registry schema is on the disk', () => {
    const disk = new HostDisk();
    const db = disk.connect(0, () => false);
    const tables = [
      ...['generations', 'pointers', 'disabled_keys', 'catalog_receipts', 'leases', 'call_receipts'],
      ...['versions', 'lifecycles', 'aliases', 'bundles', 'runs', 'receipts', 'audit'].map(
        (name) => `capability_${name}`,
      ),
    ];
    for (const table of tables) db.exec(`CREATE TABLE ${table} (x)`);
    disk.arm();
    const fenced = db
      .prepare(
        "SELECT name FROM sqlite_temp_schema WHERE type = 'trigger' AND name LIKE 'catsim_fence_%_insert' ORDER BY name",
      )
      .pluck()
      .all();
    expect(fenced).toEqual(tables.map((table) => `catsim_fence_${table}_insert`).sort());
    disk.close();
  });
});
