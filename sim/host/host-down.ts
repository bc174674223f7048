/**
 * The error a dead boot's code meets (F18): the disk's triggers and the fenced connection throw
 * it into whatever the boot was doing once the world crashed the host.
 */

/** Thrown into the code of a boot that died: by the disk's triggers and the host's fences. */
export class HostDown extends Error {
  constructor(boot: number) {
    super(`host boot ${boot} is down (F18)`);
    this.name = 'HostDown';
  }
}
