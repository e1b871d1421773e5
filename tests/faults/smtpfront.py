#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A scripted SMTP server for the fault tests, on 127.0.0.1 only.

    smtpfront.py DIR

picks a free port, writes it to DIR/port and serves each connection in a
thread of its own until SIGTERM (or 600 s). Before each connection it reads DIR/script,
lines of "WHEN REPLY" (later lines win):

    greeting 554 5.7.1 go away       the greeting
    ehlo 250 front|AUTH PLAIN|SMTPUTF8  the EHLO reply, lines split by '|'
    starttls 454 4.7.0 no TLS        (STARTTLS is never really done)
    auth 535 5.7.8 bad credentials
    mail 550 5.7.1 sender refused
    rcpt 250 ok                      every RCPT TO
    rcpt:bob@example.test 451 4.7.1 greylisted
    data 354 go ahead                the DATA command
    eod 250 2.0.0 Ok: queued as Q1   after the message
    close mail                       drop the connection instead of answering
    hang greeting                    say nothing, forever
    wait eod                         answer only once DIR/go exists

Everything is logged to DIR/log (AUTH data is not), and each accepted
message to DIR/msg.N with a line "N from <a> to <b>,<c>" in DIR/accepted.
"""
import os
import signal
import socket
import sys
import threading
import time

DEFAULT = {
    'greeting': '220 front ESMTP scripted',
    'ehlo': '250 front|8BITMIME|SIZE 100000000|AUTH PLAIN LOGIN',
    'helo': '250 front',
    'starttls': '454 4.7.0 TLS not available',
    'auth': '235 2.7.0 Authentication successful',
    'mail': '250 2.1.0 Ok',
    'rcpt': '250 2.1.5 Ok',
    'data': '354 End data with <CR><LF>.<CR><LF>',
    'eod': '250 2.0.0 Ok: queued as Q%n',
    'rset': '250 2.0.0 Ok',
    'noop': '250 2.0.0 Ok',
    'quit': '221 2.0.0 Bye',
}

d = sys.argv[1]
count = 0


def log(s):
    with open(os.path.join(d, 'log'), 'a') as f:
        f.write(s + '\n')


def script():
    s = dict(DEFAULT)
    acts = {}
    try:
        lines = open(os.path.join(d, 'script')).read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        k, _, v = line.partition(' ')
        if k in ('close', 'hang', 'wait'):
            acts[v.strip()] = k
        else:
            s[k.lower()] = v
    return s, acts


class Conn:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b''

    def line(self):
        while b'\n' not in self.buf:
            b = self.sock.recv(65536)
            if not b:
                raise EOFError
            self.buf += b
        l, _, self.buf = self.buf.partition(b'\n')
        return l.rstrip(b'\r').decode('utf-8', 'replace')

    def reply(self, text):
        global count
        parts = text.replace('%n', str(count)).split('|')
        code = parts[0][:3]
        out = ''
        for i, p in enumerate(parts):
            if i == 0:
                body = p[4:]
            else:
                body = p
            out += code + ('-' if i < len(parts) - 1 else ' ') + body + '\r\n'
        self.sock.sendall(out.encode())


def answer(c, s, acts, when, key=None):
    act = acts.get(when)
    if act == 'close':
        log('close at ' + when)
        raise EOFError
    if act == 'hang':
        log('hang at ' + when)
        time.sleep(3600)
    if act == 'wait':
        log('waiting at ' + when)
        while not os.path.exists(os.path.join(d, 'go')):
            time.sleep(0.05)
    c.reply(s.get(key or when, s.get(when.split(':')[0], '250 Ok')))
    return s.get(key or when, s.get(when.split(':')[0], '250'))


def session(sock):
    global count
    s, acts = script()
    c = Conn(sock)
    answer(c, s, acts, 'greeting')
    sender, rcpts = None, []
    while True:
        l = c.line()
        u = l.upper()
        if u.startswith('AUTH'):
            log('AUTH ' + (l.split() + [''])[1])
            words = l.split()
            if len(words) == 2 and words[1].upper() == 'LOGIN':
                c.reply('334 VXNlcm5hbWU6')
                c.line()
                c.reply('334 UGFzc3dvcmQ6')
                c.line()
            elif len(words) == 2:
                c.reply('334 ')
                c.line()
            answer(c, s, acts, 'auth')
            continue
        log(l)
        if u.startswith('EHLO'):
            answer(c, s, acts, 'ehlo')
        elif u.startswith('HELO'):
            answer(c, s, acts, 'helo')
        elif u.startswith('STARTTLS'):
            answer(c, s, acts, 'starttls')
        elif u.startswith('MAIL FROM:'):
            r = answer(c, s, acts, 'mail')
            sender, rcpts = l[10:].split()[0], []
        elif u.startswith('RCPT TO:'):
            a = l[8:].split()[0].strip('<>')
            key = 'rcpt:' + a.lower()
            r = answer(c, s, acts, 'rcpt', key if key in s else 'rcpt')
            if r.startswith('2'):
                rcpts.append(a)
        elif u == 'DATA':
            r = answer(c, s, acts, 'data')
            if not r.startswith('3'):
                continue
            msg = []
            while True:
                l = c.line()
                if l == '.':
                    break
                msg.append(l[1:] if l.startswith('..') else l)
            count += 1
            r = answer(c, s, acts, 'eod')
            if r.startswith('2'):
                with open(os.path.join(d, 'msg.%d' % count), 'w') as f:
                    f.write('\n'.join(msg) + '\n')
                with open(os.path.join(d, 'accepted'), 'a') as f:
                    f.write('%d from %s to %s\n' % (count, sender,
                                                    ','.join(rcpts)))
        elif u == 'RSET':
            answer(c, s, acts, 'rset')
        elif u == 'NOOP':
            answer(c, s, acts, 'noop')
        elif u == 'QUIT':
            answer(c, s, acts, 'quit')
            return
        else:
            c.reply('502 5.5.2 unknown command')


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
    except (EOFError, OSError):
        pass
    sock.close()
    log('disconnect')


main()
