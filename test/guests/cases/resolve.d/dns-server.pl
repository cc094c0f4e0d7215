#!/usr/bin/perl
# SPDX-License-Identifier: LGPL-2.1-or-later
# A DNS server for the resolve guest case, in the Perl every Debian system has (perl-base): UDP only.
#   noaaaa.*        A 192.0.2.1 at once; AAAA never answered (a server that drops AAAA)
#   anything else   A 192.0.2.1, AAAA 2001:db8::1, other types NOERROR without records
# Answers copy ID, RD and CD, echo the question, and carry an OPT (4096) when the query had one.
# Usage: dns-server.pl ADDRESS PORT
use strict;
use warnings;
use IO::Socket::INET;

my ($address, $port) = @ARGV;
my $sock = IO::Socket::INET->new(LocalAddr => $address, LocalPort => $port, Proto => 'udp')
        or die "cannot listen on $address:$port: $!\n";
$| = 1;
print "ready\n";

while (1) {
        my $query;
        my $peer = $sock->recv($query, 65535) or next;
        next if length($query) < 12;
        my ($id, $flags, $qd, $an, $ns, $ar) = unpack('n6', $query);
        next if $qd != 1 || ($flags & 0x8000);

        # The question: labels up to the root, then type and class.
        my ($pos, @labels) = (12);
        while ($pos < length($query)) {
                my $len = ord(substr($query, $pos, 1));
                last if $len == 0 || $len > 63;
                push @labels, lc(substr($query, $pos + 1, $len));
                $pos += 1 + $len;
        }
        next if $pos + 5 > length($query) || ord(substr($query, $pos, 1)) != 0;
        my $question = substr($query, 12, $pos + 5 - 12);
        my ($qtype) = unpack('n', substr($query, $pos + 1, 2));
        my $rest = substr($query, $pos + 5);
        my $opt = $ar >= 1 && length($rest) >= 11 && substr($rest, 0, 3) eq "\0\0\x29";

        my $name = join('.', @labels);
        # What was asked, for the case's diagnostics (seconds since the epoch).
        print time(), " $name $qtype\n";
        next if $name =~ /^noaaaa\./ && $qtype == 28;

        my @answers;
        push @answers, "\xc0\x0c" . pack('nnNn', 1, 1, 300, 4) . pack('C4', 192, 0, 2, 1) if $qtype == 1;
        push @answers, "\xc0\x0c" . pack('nnNn', 28, 1, 300, 16) . pack('n8', 0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)
                if $qtype == 28;
        my $reply = pack('n6', $id, 0x8080 | ($flags & 0x0110), 1, scalar(@answers), 0, $opt ? 1 : 0)
                . $question . join('', @answers) . ($opt ? "\0" . pack('nnNn', 41, 4096, 0, 0) : '');
        $sock->send($reply, 0, $peer);
}
