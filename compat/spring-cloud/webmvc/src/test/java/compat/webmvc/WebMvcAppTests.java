package compat.webmvc;

import compat.GuardedChatAppTests;

/** A Spring MVC application under Spring Cloud's release train. */
class WebMvcAppTests extends GuardedChatAppTests {

}
