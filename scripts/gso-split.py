#!/usr/bin/env python3
"""Split each GSO record of a pcap into its segments: prints, per UDP record
holding several QUIC short-header packets of one connection ID at a fixed
stride, the frame number, UDP payload length, segment size and segment
offsets; with OUT, writes a copy of the capture where each such record is
replaced by one UDP datagram per segment (same timestamp), so that tshark
can decrypt them.  stdlib only.
  scripts/gso-split.py IN.pcap DCID_HEX [OUT.pcap]
Used by scripts/make-third-party-captures.sh for the facts of the gso capture."""
import struct, sys

def read_pcap(path):
    data = open(path, 'rb').read()
    magic = struct.unpack('<I', data[:4])[0]
    if magic not in (0xa1b2c3d4, 0xa1b23c4d):
        raise SystemExit('little-endian pcap only')
    linktype = struct.unpack('<I', data[20:24])[0]
    recs, off = [], 24
    while off < len(data):
        ts, tfrac, incl, orig = struct.unpack('<IIII', data[off:off + 16])
        recs.append((ts, tfrac, data[off + 16:off + 16 + incl], orig))
        off += 16 + incl
    return data[:24], linktype, recs

def l2len(linktype):
    return {1: 14, 101: 0, 113: 16, 276: 20}[linktype]

def segments(payload, dcid):
    """The smallest stride s such that a packet of this DCID starts at every
    multiple of s (the last segment may be shorter): GSO's gso_size."""
    n = len(payload)
    for s in range(64, n // 2 + 1):
        offs = list(range(0, n, s))
        if all(payload[o] & 0x80 == 0 and payload[o + 1:o + 1 + len(dcid)] == dcid for o in offs):
            return s, offs
    return None, [0]

def ip_udp(ipv4, udp_hdr, payload):
    ihl = (ipv4[0] & 0x0f) * 4
    ip = bytearray(ipv4[:ihl])
    struct.pack_into('!H', ip, 2, ihl + 8 + len(payload))
    struct.pack_into('!H', ip, 10, 0)
    csum = sum(struct.unpack('!%dH' % (ihl // 2), ip))
    while csum >> 16:
        csum = (csum & 0xffff) + (csum >> 16)
    struct.pack_into('!H', ip, 10, ~csum & 0xffff)
    udp = bytearray(udp_hdr)
    struct.pack_into('!H', udp, 4, 8 + len(payload))
    struct.pack_into('!H', udp, 6, 0)  # no checksum
    return bytes(ip) + bytes(udp) + payload

def main():
    src, dcid = sys.argv[1], bytes.fromhex(sys.argv[2])
    out = sys.argv[3] if len(sys.argv) > 3 else None
    header, linktype, recs = read_pcap(src)
    skip = l2len(linktype)
    written = []
    for i, (ts, tfrac, frame, orig) in enumerate(recs, 1):
        ip = frame[skip:]
        ihl = (ip[0] & 0x0f) * 4
        if ip[0] >> 4 != 4 or ip[9] != 17:
            written.append((ts, tfrac, frame)); continue
        udp_hdr, payload = ip[ihl:ihl + 8], ip[ihl + 8:struct.unpack('!H', ip[2:4])[0]]
        s, offs = segments(payload, dcid)
        if s is None:
            written.append((ts, tfrac, frame)); continue
        sizes = [min(s, len(payload) - o) for o in offs]
        print(f'frame {i}: UDP payload {len(payload)} bytes = {len(offs)} segments of {s} '
              f'(last {sizes[-1]}), short-header packets with DCID {dcid.hex()} at offsets '
              + ','.join(map(str, offs)))
        for o, n in zip(offs, sizes):
            written.append((ts, tfrac, frame[:skip] + ip_udp(ip, udp_hdr, payload[o:o + n])))
    if out:
        with open(out, 'wb') as f:
            f.write(header)
            for ts, tfrac, frame in written:
                f.write(struct.pack('<IIII', ts, tfrac, len(frame), len(frame)) + frame)

main()
