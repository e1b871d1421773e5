#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A scripted IMAP server for the fault tests, on 127.0.0.1 only.

    imapfront.py DIR

picks a free port, writes it to DIR/port and serves each connection in a
thread of its own until SIGTERM (or 600 s). The mailbox INBOX is DIR/mail/UID.eml (UIDs
as the file names, UIDVALIDITY 7); DIR/seen and DIR/moved list the UIDs
marked \\Seen and moved. Before each connection it reads DIR/script:

    select-raw * OK [UIDVALIDITY x]   send this line in the SELECT answer
    size UID N                       RFC822.SIZE of UID says N
    big UID N                        the literal of UID holds N bytes
    eof-literal UID                  close the connection inside UID's literal
    hang COMMAND                     never answer COMMAND (STORE, FETCH, ...)
    refuse COMMAND                   answer COMMAND with NO
    mailbox NAME                     a mailbox that exists besides INBOX

Every command is logged to DIR/log (LOGIN's password is not).
"""
import os
import re
import signal
import socket
import sys
import threading
import time

d = sys.argv[1]


def log(s):
    with open(os.path.join(d, 'log'), 'a') as f:
        f.write(s + '\n')


def note(name, uid):
    with open(os.path.join(d, name), 'a') as f:
        f.write('%d\n' % uid)


def script():
    s = {'raw': [], 'size': {}, 'big': {}, 'eof': set(), 'hang': set(),
         'refuse': set(), 'boxes': {'INBOX'}}
    try:
        lines = open(os.path.join(d, 'script')).read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        w = line.split(None, 1)
        if not w or w[0].startswith('#'):
            continue
        k, v = w[0], (w[1] if len(w) > 1 else '')
        if k == 'select-raw':
            s['raw'].append(v.encode().decode('unicode_escape').encode(
                'latin-1'))
        elif k in ('size', 'big'):
            u, n = v.split()
            s[k][int(u)] = int(n)
        elif k == 'eof-literal':
            s['eof'].add(int(v))
        elif k in ('hang', 'refuse'):
            s[k].add(v.upper())
        elif k == 'mailbox':
            s['boxes'].add(v)
    return s


def mails():
    m = {}
    md = os.path.join(d, 'mail')
    for f in os.listdir(md) if os.path.isdir(md) else []:
        if f.endswith('.eml'):
            m[int(f[:-4])] = open(os.path.join(md, f), 'rb').read()
    return m


def uidset(spec, have):
    out = set()
    top = max(have) if have else 0
    for part in spec.split(','):
        if ':' in part:
            a, b = part.split(':')
            a = top if a == '*' else int(a)
            b = top if b == '*' else int(b)
            lo, hi = min(a, b), max(a, b)
            out |= {u for u in have if lo <= u <= hi}
            if not out and top:
                out.add(top)	# "N:*" holds the highest UID
        else:
            u = top if part == '*' else int(part)
            if u in have:
                out.add(u)
    return sorted(out)


class Conn:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b''

    def line(self):
        while b'\r\n' not in self.buf:
            b = self.sock.recv(65536)
            if not b:
                raise EOFError
            self.buf += b
        l, _, self.buf = self.buf.partition(b'\r\n')
        return l.decode('utf-8', 'replace')

    def send(self, b):
        if isinstance(b, str):
            b = b.encode()
        self.sock.sendall(b)


def fetch(c, s, m, tag, uids, what):
    for u in uids:
        if 'RFC822.SIZE' in what.upper():
            n = s['size'].get(u, len(m[u]))
            c.send('* %d FETCH (UID %d RFC822.SIZE %d)\r\n' % (u, u, n))
            continue
        body = m[u]
        if u in s['big']:
            body = (body * (s['big'][u] // max(len(body), 1) + 1))[
                :s['big'][u]]
        else:
            p = re.search(r'<(\d+)\.(\d+)>', what)
            if p:
                body = body[int(p.group(1)):int(p.group(1)) +
                            int(p.group(2))]
        head = '* %d FETCH (UID %d BODY[] {%d}\r\n' % (u, u, len(body))
        if u in s['eof']:
            c.send(head.encode() + body[:len(body) // 2])
            log('eof inside the literal of %d' % u)
            raise EOFError
        c.send(head.encode() + body + b')\r\n')
    c.send('%s OK UID FETCH completed\r\n' % tag)


def session(sock):
    s = script()
    c = Conn(sock)
    m = mails()
    c.send('* OK [CAPABILITY IMAP4rev1 MOVE] scripted ready\r\n')
    while True:
        l = c.line()
        w = l.split(' ')
        tag, cmd = w[0], (w[1].upper() if len(w) > 1 else '')
        if cmd == 'UID' and len(w) > 2:
            cmd = 'UID ' + w[2].upper()
        log(re.sub(r'^(\S+ LOGIN \S+) .*', r'\1 ***', l))
        if cmd.split()[-1] in s['hang'] or cmd in s['hang']:
            log('hang at ' + cmd)
            time.sleep(3600)
        if cmd.split()[-1] in s['refuse'] or cmd in s['refuse']:
            c.send('%s NO [AUTHENTICATIONFAILED] refused\r\n' % tag)
            continue
        if cmd == 'CAPABILITY':
            c.send('* CAPABILITY IMAP4rev1 MOVE\r\n%s OK done\r\n' % tag)
        elif cmd == 'LOGIN':
            c.send('%s OK logged in\r\n' % tag)
        elif cmd in ('SELECT', 'EXAMINE'):
            out = b''.join(r + b'\r\n' for r in s['raw'])
            if not s['raw']:
                out = ('* %d EXISTS\r\n* 0 RECENT\r\n* FLAGS (\\Seen)\r\n'
                       '* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT %d] ok\r\n'
                       % (len(m), max(m, default=0) + 1)).encode()
            c.send(out + ('%s OK [READ-WRITE] selected\r\n' % tag).encode())
        elif cmd == 'UID SEARCH':
            spec = l.split('UID', 2)[2].split()[-1]
            c.send('* SEARCH %s\r\n%s OK done\r\n' % (
                ' '.join(str(u) for u in uidset(spec, m)), tag))
        elif cmd == 'UID FETCH':
            fetch(c, s, m, tag, uidset(w[3], m), ' '.join(w[4:]))
        elif cmd == 'UID STORE':
            for u in uidset(w[3], m):
                note('seen', u)
            c.send('%s OK stored\r\n' % tag)
        elif cmd == 'UID MOVE':
            box = w[4].strip('"')
            if box not in s['boxes']:
                c.send('%s NO [TRYCREATE] no such mailbox\r\n' % tag)
                continue
            for u in uidset(w[3], m):
                note('moved', u)
            c.send('%s OK moved\r\n' % tag)
        elif cmd == 'LIST':
            box = w[-1].strip('"')
            if box in s['boxes']:
                c.send('* LIST () "/" %s\r\n' % box)
            c.send('%s OK listed\r\n' % tag)
        elif cmd == 'CREATE':
            box = w[2].strip('"')
            with open(os.path.join(d, 'script'), 'a') as f:
                f.write('mailbox %s\n' % box)
            s['boxes'].add(box)
            c.send('%s OK created\r\n' % tag)
        elif cmd == 'LOGOUT':
            c.send('* BYE bye\r\n%s OK bye\r\n' % tag)
            return
        elif cmd == 'NOOP':
            c.send('%s OK noop\r\n' % tag)
        else:
            c.send('%s BAD unknown command\r\n' % tag)


def main():
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    signal.alarm(600)
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(('127.0.0.1', 0))
    ls.listen(16)
    with open(os.path.join(d, 'port.tmp'), 'w') as f:
        f.write('%d\n' % ls.getsockname()[1])
    os.rename(os.path.join(d, 'port.tmp'), os.path.join(d, 'port'))
    while True:
        sock, _ = ls.accept()
        threading.Thread(target=serve, args=(sock,), daemon=True).start()


def serve(sock):
    log('connect')
    try:
        session(sock)
    except (EOFError, OSError, ValueError, IndexError, KeyError):
        pass
    sock.close()
    log('disconnect')


main()
