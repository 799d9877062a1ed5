#!/usr/bin/env perl
# A partner backend in Perl that shares an API key's line with Node processes through the limiter host, speaking its
# wire (core/README.md, "Processes that share a key can share one line"; core/http/limiter-wire.ts) with core Perl
# only (HTTP::Tiny, JSON::PP, Digest::SHA). Each call: ask for a turn under a ticket of its own, asking again while
# the host answers 202 queued; send it to the service; report how it ended; after a 429, wait out the key's pause
# (at least the service's backoff) and try again, at most 5 tries. Prints one JSON line: every status and how many
# times it asked for a turn.
# Usage: PL_CLIENT_SECRET=… PL_API_KEY=… [LIMITER_TOKEN=…] perl limiter-worker.pl <host URL> <token URL> <base URL>
#          <client id> <organization id> <calls> [requests per second]
use strict;
use warnings;
use Digest::SHA qw(sha256_hex);
use HTTP::Tiny;
use JSON::PP qw(encode_json decode_json);
use MIME::Base64 qw(encode_base64);
use Time::HiRes qw(sleep);

my ($host, $token_url, $base, $client_id, $organization, $calls, $rate) = @ARGV;
die "usage: limiter-worker.pl <host URL> <token URL> <base URL> <client id> <organization id> <calls> [rate]\n" unless $calls;
my ($secret, $api_key, $host_token) = @ENV{qw(PL_CLIENT_SECRET PL_API_KEY LIMITER_TOKEN)};
my $http = HTTP::Tiny->new(timeout => 60);
$host .= '/' unless $host =~ m{/$};
# The host sees the key only as its SHA-256; a configured rate, when given, as the Node processes state it.
my %line = (key => sha256_hex($api_key), ($rate ? (rate => { requestsPerSecond => 0 + $rate, burst => 1 }) : ()));
my %host_headers = ('content-type' => 'application/json', ($host_token ? (authorization => "Bearer $host_token") : ()));

sub host {
  my ($route, $body) = @_;
  my $res = $http->post("$host$route", { headers => \%host_headers, content => encode_json($body) });
  die "the limiter host answered $res->{status} to $route\n" unless $res->{success};
  return decode_json($res->{content});
}

my $basic = encode_base64("$client_id:$secret", '');
my $token = $http->post($token_url, {
  headers => { authorization => "Basic $basic", 'content-type' => 'application/x-www-form-urlencoded' },
  content => 'grant_type=client_credentials&scope=partner-api%2Fread',
});
die "the token request answered $token->{status}\n" unless $token->{success};
my $access = decode_json($token->{content})->{access_token};

my (@statuses, $asks);
for my $n (1 .. $calls) {
  for my $try (1 .. 5) {
    my $ticket = sprintf('perl-%d-%d-%d-%08x', $$, $n, $try, int(rand(2**32)));
    my $lease;
    until (defined $lease) {
      $lease = host('turn', { %line, ticket => $ticket })->{lease};
      $asks++;
    }
    my $answer = $http->get("$base/organizations/$organization", { headers => { authorization => "Bearer $access", 'x-api-key' => $api_key } });
    my $status = 0 + $answer->{status};
    push @statuses, $status;
    # HTTP::Tiny answers 599 for a request that got no answer (refused, timed out).
    my $outcome = $status == 599 ? 'no-answer' : $status == 429 ? 'throttled' : $status >= 500 ? 'server-error' : $answer->{success} ? 'success' : 'other';
    my $state = host('outcome', { lease => $lease, outcome => $outcome });
    last unless $status == 429;
    my $backoff = 2 ** ($try - 1); # the service's rules: 1 s, doubling
    my $pause = $state->{pauseRemainingMs} / 1000;
    sleep($pause > $backoff ? $pause : $backoff);
  }
}
print encode_json({ statuses => \@statuses, asks => $asks }), "\n";
