package compat.webflux;

import compat.GuardedChatAppTests;

/** A WebFlux application under Spring Cloud's release train. */
class WebFluxAppTests extends GuardedChatAppTests {

}
