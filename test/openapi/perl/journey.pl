#!/usr/bin/env perl
# A partner backend in Perl, driven at run time by the relay's OpenAPI document (the 3.0 rendering: Debian's
# OpenAPI::Client reads 3.0): every call is made by operationId. Prints one JSON line per step for the test.
# Usage: perl journey.pl <document file> <base URL> <relay key> <e-mail>
use strict;
use warnings;
use Mojo::JSON qw(encode_json);
use OpenAPI::Client;

my ($document, $base, $relay_key, $email) = @ARGV;
die "usage: journey.pl <document> <base URL> <relay key> <e-mail>\n" unless $email;

my $client = OpenAPI::Client->new("file://$document", base_url => $base);
my $bearer;
# Credentials go on every request the client sends: the relay key, or a learner's token once minted.
$client->ua->on(start => sub {
  my (undef, $tx) = @_;
  if ($bearer) { $tx->req->headers->authorization("Bearer $bearer") }
  else { $tx->req->headers->header('X-Relay-Key' => $relay_key) }
});

sub step {
  my ($name, $tx) = @_;
  my $res = $tx->res;
  my $type = $res->headers->content_type // '';
  my $json = $type =~ m{json} ? $res->json : undef;
  print encode_json({ step => $name, status => $res->code // 0, type => $type, body => $json, bytes => length($res->body // '') }), "\n";
  return $json;
}

my $orgs = step('listOrganizations', $client->listOrganizations({ itemsPerPage => '5' }));
my $user = step('registerUser', $client->registerUser({ body => {
  email => $email, firstName => 'Larry', lastName => 'Wall', organizationId => $orgs->{'hydra:member'}[0]{id} } }));
my $token = step('mintLearnerToken', $client->mintLearnerToken({ body => { userId => $user->{uuid}, ttlSeconds => 600 } }));
$bearer = $token->{token};
step('getMe', $client->getMe({}));
my $courses = step('listCourses', $client->listCourses({}));
my $course = step('getCourse', $client->getCourse({ id => "$courses->{'hydra:member'}[0]{id}" }));
my ($module) = grep { $_->{contentType} ne 'scorm' } @{ $course->{modules} };
step('getModuleContent', $client->getModuleContent({ id => "$module->{id}" }));
step('completeModule', $client->completeModule({ id => "$module->{id}" }));
step('listTranscripts', $client->listTranscripts({}));
step('getTranscriptPdf', $client->getTranscriptPdf({}));
