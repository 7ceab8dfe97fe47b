import { describe, expect, it } from 'vitest';
import { isBindMounted, parseMountinfo, unescapeMountPath } from './mounts';

/** /proc/self/mountinfo inside a Docker container: resolv.conf, hostname and hosts are bind mounts. */
const DOCKER = `1419 1287 0:183 / / rw,relatime master:590 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/ABC:/var/lib/docker/overlay2/l/DEF,upperdir=/var/lib/docker/overlay2/123/diff,workdir=/var/lib/docker/overlay2/123/work
1420 1419 0:186 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
1421 1419 0:187 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755,inode64
1425 1419 254:1 /var/lib/docker/containers/4f1c9e/resolv.conf /etc/resolv.conf rw,relatime - ext4 /dev/vda1 rw,discard
1426 1419 254:1 /var/lib/docker/containers/4f1c9e/hostname /etc/hostname rw,relatime - ext4 /dev/vda1 rw,discard
1427 1419 254:1 /var/lib/docker/containers/4f1c9e/hosts /etc/hosts rw,relatime - ext4 /dev/vda1 rw,discard
`;

/** A normal host: ext4 root, /run tmpfs, a path with a space. */
const HOST = `22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro
25 22 0:23 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=3255700k,mode=755,inode64
95 22 259:1 / /boot/efi rw,relatime shared:38 - vfat /dev/nvme0n1p1 rw,fmask=0077
120 22 0:50 / /media/My\\040Disk rw,relatime shared:60 - fuseblk /dev/sda1 rw
`;

describe('mountinfo', () => {
  it('parses mount point, root, fs type and source (optional fields skipped)', () => {
    expect(parseMountinfo(DOCKER)[3]).toEqual({
      mountId: 1425,
      root: '/var/lib/docker/containers/4f1c9e/resolv.conf',
      mountPoint: '/etc/resolv.conf',
      fsType: 'ext4',
      source: '/dev/vda1',
    });
    expect(parseMountinfo(HOST).map((m) => m.mountPoint)).toEqual(['/', '/run', '/boot/efi', '/media/My Disk']);
    expect(parseMountinfo(HOST)[1]?.fsType).toBe('tmpfs');
  });

  it('detects a bind-mounted /etc/resolv.conf in a container, not on a normal host', () => {
    expect(isBindMounted('/etc/resolv.conf', DOCKER)).toBe(true);
    expect(isBindMounted('/etc/resolv.conf', HOST)).toBe(false);
    expect(isBindMounted('/media/My Disk/', HOST)).toBe(true);
    expect(isBindMounted('/', HOST)).toBe(true);
  });

  it('unescapes kernel octal escapes', () => {
    expect(unescapeMountPath('/a\\040b\\011c\\134d')).toBe('/a b\tc\\d');
  });
});
