#!/usr/bin/env python3
"""Writes synthetic.pcap: one hand-made TCP connection (raw IPv4, microsecond
pcap) whose every analysis value is known by construction. The expected
values are in README.md and tests/unit/tcp_flow_analysis_test.cpp; tshark
agrees with them (see README.md). Run from this folder: python3 synthesize.py
"""
import struct

A = (0x0A000001, 40000)  # 10.0.0.1, the initiator
B = (0x0A000002, 80)     # 10.0.0.2, the responder
FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def tcp(src, dst, seq, ack, flags, win, payload=0, wscale=None):
    opts = b""
    if wscale is not None:
        opts = bytes([1, 3, 3, wscale])  # NOP, Window Scale (RFC 7323 §2.2)
    hdr_len = 20 + len(opts)
    body = struct.pack("!HHIIBBHHH", src[1], dst[1], seq, ack, (hdr_len // 4) << 4, flags, win, 0, 0)
    body += opts + b"x" * payload
    total = 20 + len(body)
    ip = struct.pack("!BBHHHBBHII", 0x45, 0, total, 0, 0x4000, 64, 6, 0, src[0], dst[0])
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    pseudo = struct.pack("!IIBBH", src[0], dst[0], 0, 6, len(body))
    body = body[:16] + struct.pack("!H", csum(pseudo + body)) + body[18:]
    return ip + body


def udp(src, dst, payload):
    body = struct.pack("!HHHH", src[1], dst[1], 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBHII", 0x45, 0, 20 + len(body), 0, 0, 64, 17, 0, src[0], dst[0])
    return ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + body


# (time in microseconds, packet); the frame number is the position from 1.
frames = [
    (0, tcp(A, B, 1000, 0, SYN, 65535, wscale=7)),                    # 1 SYN, offers shift 7
    (1000, tcp(B, A, 5000, 1001, SYN | ACK, 65535, wscale=2)),        # 2 SYN-ACK, offers shift 2
    (2000, tcp(A, B, 1001, 5001, ACK, 512)),                          # 3 window 512<<7 = 65536
    (10000, tcp(A, B, 1001, 5001, PSH | ACK, 512, payload=100)),      # 4 request 1: 100 bytes
    (10500, udp((0x0A000003, 9999), A, b"not tcp")),                    # 5 not TCP: skipped, counted
    (11000, tcp(B, A, 5001, 1101, ACK, 1000)),                        # 6 window 1000<<2 = 4000
    (20000, tcp(B, A, 5001, 1101, ACK, 1000, payload=1000)),          # 7 response bytes 0-999
    (21000, tcp(B, A, 7001, 1101, ACK, 1000, payload=1000)),          # 8 bytes 2000-2999, hole below
    (22000, tcp(B, A, 6001, 1101, ACK, 1000, payload=1000)),          # 9 fills the hole: out of order
    (23000, tcp(A, B, 1101, 8001, ACK, 0)),                           # 10 zero window (episode 1)
    (223000, tcp(B, A, 8000, 1101, ACK, 1000)),                       # 11 Linux-style zero-window probe
    (224000, tcp(A, B, 1101, 8001, ACK, 0)),                          # 12 still zero (same episode)
    (500000, tcp(A, B, 1101, 8001, ACK, 256)),                        # 13 window opens: 256<<7 = 32768
    (501000, tcp(B, A, 8001, 1101, PSH | ACK, 1000, payload=1000)),   # 14 bytes 3000-3999
    (502000, tcp(B, A, 8001, 1101, PSH | ACK, 1000, payload=1000)),   # 15 the same again: retransmission
    (510000, tcp(A, B, 1101, 9001, ACK, 512)),                        # 16
    (600000, tcp(A, B, 1101, 9001, PSH | ACK, 512, payload=50)),      # 17 request 2: 50 bytes
    (601000, tcp(B, A, 9001, 1151, PSH | ACK, 1000, payload=10)),     # 18 response 2: 10 bytes
    (602000, tcp(A, B, 1151, 9011, FIN | ACK, 0)),                    # 19 FIN with window 0: not a zero window
    (603000, tcp(B, A, 9011, 1152, FIN | ACK, 1000)),                 # 20
    (604000, tcp(A, B, 1152, 9012, ACK, 512)),                        # 21
]

with open("synthetic.pcap", "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 101))  # LINKTYPE_RAW
    base = 1_700_000_000
    for t_us, pkt in frames:
        f.write(struct.pack("<IIII", base + t_us // 1_000_000, t_us % 1_000_000, len(pkt), len(pkt)))
        f.write(pkt)
