import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address.js';

describe('clientAddressKey: one client, one key', () => {
  it.each([
    ['5.5.5.5', '5.5.5.5'],
    ['::ffff:5.5.5.5', '5.5.5.5'],
    ['::FFFF:5.5.5.5', '5.5.5.5'],
    ['::ffff:0505:0505', '5.5.5.5'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
  ])('%s counts as %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });

  it('keeps IPv4 neighbours and IPv6 /64s apart', () => {
    expect(clientAddressKey('5.5.5.6')).not.toBe(clientAddressKey('5.5.5.5'));
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(clientAddressKey('2001:db8:1:2::1'));
  });
});
